package io.stork.store.testing;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Reads the store's access log to count REST calls at the store, for a window of time. A window is
 * delimited by two marker requests the store logs like any other: everything logged between them is the
 * window's, whatever the order in which the proxy's workers flush their lines. Only the requests clients
 * sent are counted; those middlewares make internally (s3api, SLO, bulk) carry a source tag and are not.
 */
public final class AccessLog {

    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final Duration WAIT = Duration.ofSeconds(15);

    private final Path file;
    private final int port;

    public AccessLog(Path file, int port) {
        this.file = file;
        this.port = port;
    }

    /** Starts counting: sends a start marker and waits until the store has logged it. */
    public Window openWindow() {
        String marker = mark();
        long offset = awaitMarker(marker, 0);
        return new Window(offset);
    }

    /** Calls counted between {@link #openWindow()} and {@link #close()}. */
    public final class Window implements AutoCloseable {
        private final long startOffset;
        private StoreCallCounts counts;

        private Window(long startOffset) {
            this.startOffset = startOffset;
        }

        /** Sends the end marker, waits for it, and returns the calls logged in between. */
        public StoreCallCounts counts() {
            if (counts == null) {
                String marker = mark();
                long end = awaitMarker(marker, startOffset);
                counts = new StoreCallCounts(entriesBetween(startOffset, end));
            }
            return counts;
        }

        @Override
        public void close() {
            counts();
        }
    }

    private String mark() {
        String marker = "stork-marker-" + UUID.randomUUID();
        try {
            HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/" + marker))
                    .method("HEAD", HttpRequest.BodyPublishers.noBody()).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.discarding());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot reach the store to mark the access log", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
        return marker;
    }

    /** Returns the offset just past the marker's line. */
    private long awaitMarker(String marker, long from) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            long found = find(marker, from);
            if (found >= 0) {
                return found;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("marker " + marker + " never appeared in " + file);
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    private long find(String marker, long from) {
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            in.seek(from);
            String line;
            while ((line = readLine(in)) != null) {
                if (line.contains(AccessLogEntry.TAG) && line.contains(marker)) {
                    return in.getFilePointer();
                }
            }
            return -1;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<AccessLogEntry> entriesBetween(long start, long end) {
        List<AccessLogEntry> entries = new ArrayList<>();
        try (RandomAccessFile in = new RandomAccessFile(file.toFile(), "r")) {
            in.seek(start);
            String line;
            while (in.getFilePointer() < end && (line = readLine(in)) != null) {
                if (!line.contains("stork-marker-")) {
                    AccessLogEntry.parse(line).filter(AccessLogEntry::fromClient).ifPresent(entries::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return entries;
    }

    /** Reads a UTF-8 line; RandomAccessFile.readLine would mangle non-ASCII bytes. */
    private static String readLine(RandomAccessFile in) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(256);
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            bytes.write(b);
        }
        if (b < 0 && bytes.size() == 0) {
            return null;
        }
        if (b < 0) {
            // A line still being written: leave it for the next read.
            in.seek(in.getFilePointer() - bytes.size());
            return null;
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}
