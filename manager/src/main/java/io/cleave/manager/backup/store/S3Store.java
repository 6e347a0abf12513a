package io.cleave.manager.backup.store;

import software.amazon.awssdk.auth.credentials.AnonymousCredentialsProvider;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.Delete;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.NoSuchBucketException;
import software.amazon.awssdk.services.s3.model.NoSuchKeyException;
import software.amazon.awssdk.services.s3.model.ObjectIdentifier;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

import java.io.IOException;
import java.net.URI;
import java.nio.file.NoSuchFileException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * A backup location in an S3 bucket (AWS, or any S3-compatible server through {@code endpoint}).
 * Requests are path-style ({@code endpoint/bucket/key}), which every S3-compatible server serves.
 * Integrity is Content-MD5 on every upload, which S3 and the servers that copy its API all check,
 * rather than the SDK's newer default checksums (CRC32 in aws-chunked trailers) that several of
 * them refuse; the manifest's SHA-256 of every chunk is checked again when it is read back.
 * Credentials come from the SDK's usual chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, the
 * aws.accessKeyId system property, a profile, an instance role); none found means anonymous requests.
 */
public final class S3Store implements BackupStore {

    private final String bucket;
    private final String prefix;
    private final S3Client s3;
    private final String described;

    /** {@code location} is {@code s3://BUCKET/PREFIX}. */
    public S3Store(String location, Optional<String> endpoint, String region) {
        String rest = location.substring("s3://".length());
        int slash = rest.indexOf('/');
        this.bucket = slash < 0 ? rest : rest.substring(0, slash);
        String p = slash < 0 ? "" : rest.substring(slash + 1);
        this.prefix = p.isEmpty() || p.endsWith("/") ? p : p + "/";
        this.described = location;
        var builder = S3Client.builder()
                .region(Region.of(region))
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .credentialsProvider(credentials())
                .httpClientBuilder(UrlConnectionHttpClient.builder()
                        .connectionTimeout(Duration.ofSeconds(5))
                        .socketTimeout(Duration.ofSeconds(60)));
        endpoint.ifPresent(e -> builder.endpointOverride(URI.create(e)));
        this.s3 = builder.build();
    }

    private static AwsCredentialsProvider credentials() {
        try {
            DefaultCredentialsProvider chain = DefaultCredentialsProvider.builder().build();
            chain.resolveCredentials();
            return chain;
        } catch (SdkException e) {
            return AnonymousCredentialsProvider.create();
        }
    }

    @Override
    public String describe() {
        return described;
    }

    @Override
    public void open() throws IOException {
        try {
            s3.headBucket(b -> b.bucket(bucket));
        } catch (NoSuchBucketException e) {
            throw new NoSuchFileException(described, null, "bucket " + bucket + " does not exist");
        } catch (SdkException e) {
            throw failure("reach", described, e);
        }
    }

    @Override
    public void put(String key, byte[] content) throws IOException {
        try {
            s3.putObject(b -> b.bucket(bucket).key(prefix + key).contentLength((long) content.length)
                    .contentMD5(md5(content)), RequestBody.fromBytes(content));
        } catch (NoSuchBucketException e) {
            throw new NoSuchFileException(described, null, "bucket " + bucket + " is gone");
        } catch (SdkException e) {
            throw failure("write " + key + " to", described, e);
        }
    }

    @Override
    public byte[] get(String key) throws IOException {
        try {
            return s3.getObjectAsBytes(b -> b.bucket(bucket).key(prefix + key)).asByteArray();
        } catch (NoSuchKeyException e) {
            throw new NoSuchFileException(described + "/" + key);
        } catch (SdkException e) {
            throw failure("read " + key + " from", described, e);
        }
    }

    @Override
    public List<String> list(String keyPrefix) throws IOException {
        List<String> keys = new ArrayList<>();
        try {
            String token = null;
            do {
                ListObjectsV2Request.Builder request = ListObjectsV2Request.builder().bucket(bucket).prefix(prefix + keyPrefix);
                if (token != null) {
                    request.continuationToken(token);
                }
                ListObjectsV2Response page = s3.listObjectsV2(request.build());
                for (S3Object o : page.contents()) {
                    keys.add(o.key().substring(prefix.length()));
                }
                token = page.isTruncated() ? page.nextContinuationToken() : null;
            } while (token != null);
        } catch (NoSuchBucketException e) {
            throw new NoSuchFileException(described, null, "bucket " + bucket + " is gone");
        } catch (SdkException e) {
            throw failure("list", described, e);
        }
        keys.sort(null);
        return keys;
    }

    @Override
    public void deleteAll(String keyPrefix) throws IOException {
        List<String> keys = list(keyPrefix);
        try {
            for (int i = 0; i < keys.size(); i += 1000) {
                List<ObjectIdentifier> ids = new ArrayList<>();
                for (String k : keys.subList(i, Math.min(keys.size(), i + 1000))) {
                    ids.add(ObjectIdentifier.builder().key(prefix + k).build());
                }
                s3.deleteObjects(b -> b.bucket(bucket).delete(Delete.builder().objects(ids).quiet(true).build()));
            }
        } catch (SdkException e) {
            throw failure("delete from", described, e);
        }
    }

    private static IOException failure(String what, String where, SdkException e) {
        String detail = e instanceof S3Exception s && s.awsErrorDetails() != null
                ? s.awsErrorDetails().errorCode() + ": " + s.awsErrorDetails().errorMessage() : e.getMessage();
        return new IOException("cannot " + what + " " + where + ": " + detail, e);
    }

    private static String md5(byte[] content) {
        try {
            return Base64.getEncoder().encodeToString(MessageDigest.getInstance("MD5").digest(content));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public void close() {
        s3.close();
    }
}
