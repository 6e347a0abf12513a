package io.cleave.bench.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Keeps generated sections of a Markdown document (bench/RESULTS.md) up to date: the text between
 * {@code <!-- BEGIN cleave-bench:NAME -->} and {@code <!-- END cleave-bench:NAME -->} is replaced,
 * the prose around it is left alone. A section not there yet is appended.
 */
public final class ResultsDocument {

    private ResultsDocument() {
    }

    public static void splice(Path document, String section, String content) throws IOException {
        String text = Files.exists(document) ? Files.readString(document) : "";
        Files.writeString(document, splice(text, section, content));
    }

    static String splice(String text, String section, String content) {
        String begin = "<!-- BEGIN cleave-bench:" + section + " -->";
        String end = "<!-- END cleave-bench:" + section + " -->";
        String body = begin + "\n" + content.strip() + "\n" + end;
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        if (from < 0 || to < from) {
            return (text.isEmpty() || text.endsWith("\n\n") ? text : text.endsWith("\n") ? text + "\n" : text + "\n\n")
                + body + "\n";
        }
        return text.substring(0, from) + body + text.substring(to + end.length());
    }
}
