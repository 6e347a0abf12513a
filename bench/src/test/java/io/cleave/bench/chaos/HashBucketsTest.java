package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HashBucketsTest {

    /** Buckets Cleave's HashShardFunction gives these keys (its on-disk contract), worked out with it once. */
    @Test
    void bucketsAreCleavesOwn() {
        long[][] keyBucket = {{0, 30}, {1, 38}, {2, 58}, {3, 50}, {7, 13}, {100, 47}, {2599, 26}, {-5, 53},
            {Long.MAX_VALUE, 13}};
        for (long[] kb : keyBucket) {
            assertThat(HashBuckets.bucketOf(kb[0], 64)).as("bucket of %d", kb[0]).isEqualTo((int) kb[1]);
        }
        assertThat(HashBuckets.bucketOf(12345, 256)).isEqualTo(11);
    }
}
