package io.stork.localstore;

import java.io.IOException;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
    private static final Duration SETTLE = Duration.ofMillis(250);

    private final Path file;
    private final URI store;
    private final String storageDomain;

    /** @param store the store's base URL, where marker requests go */
    public AccessLog(Path file, URI store) {
        this(file, store, null);
    }

    /**
     * @param storageDomain the store's s3api storage domain (virtual-hosted-style requests are counted under
     *                      the bucket their Host header names), or null
     */
    public AccessLog(Path file, URI store, String storageDomain) {
        this.file = file;
        this.store = store;
        this.storageDomain = storageDomain;
    }

    /** Starts counting: sends a start marker and waits until the store has logged it. */
    public Window openWindow() {
        long from = currentSize();
        String marker = mark();
        long offset = awaitMarker(marker, from);
        return new Window(offset, markerStart(marker, from));
    }

    /** Calls counted between {@link #openWindow()} and {@link #close()}. */
    public final class Window implements AutoCloseable {
        private final long startOffset;
        private final double startTime;
        private StoreCallCounts counts;

        private Window(long startOffset, double startTime) {
            this.startOffset = startOffset;
            this.startTime = startTime;
        }

        /**
         * Sends the end marker, waits for it, and returns the calls that started between the markers.
         * A request the client abandoned (a GET closed early) is logged when the proxy notices, which can
         * be after the end marker: lines are taken by start time, after a short settling pause.
         */
        public StoreCallCounts counts() {
            if (counts == null) {
                String marker = mark();
                awaitMarker(marker, startOffset);
                double endTime = markerStart(marker, startOffset);
                try {
                    Thread.sleep(SETTLE.toMillis());
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                List<AccessLogEntry> all = entriesStartedBetween(startOffset, startTime, endTime);
                counts = new StoreCallCounts(all.stream().filter(AccessLogEntry::fromClient).toList(),
                        all.stream().filter(AccessLogEntry::serverSideCopyRead)
                                .mapToLong(AccessLogEntry::bytesSent).sum());
            }
            return counts;
        }

        /**
         * The client's calls between the markers in the order they started, with the step markers a child
         * process sent ({@link AccessLogEntry#stepMarker()}), so a process's calls can be split by step.
         */
        public List<AccessLogEntry> entriesInOrder() {
            return counts().entries().stream()
                    .sorted(java.util.Comparator.comparingDouble(AccessLogEntry::startTime)).toList();
        }

        @Override
        public void close() {
            counts();
        }
    }

    private String mark() {
        String marker = "stork-marker-" + UUID.randomUUID();
        try {
            HTTP.send(HttpRequest.newBuilder(store.resolve("/" + marker))
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
        long[] found = {-1};
        scan(from, Long.MAX_VALUE, (line, endOffset) -> {
            if (line.contains(AccessLogEntry.TAG) && line.contains(marker)) {
                found[0] = endOffset;
                return false;
            }
            return true;
        });
        return found[0];
    }

    /** Requests logged after {@code offset} whose start time lies between the two markers'. */
    private List<AccessLogEntry> entriesStartedBetween(long offset, double from, double to) {
        List<AccessLogEntry> entries = new ArrayList<>();
        scan(offset, Long.MAX_VALUE, (line, endOffset) -> {
            if (!line.contains("stork-marker-")) {
                AccessLogEntry.parse(line, storageDomain).filter(e -> e.startTime() >= from && e.startTime() <= to).ifPresent(entries::add);
            }
            return true;
        });
        return entries;
    }

    /** The start time the store logged for a marker request. */
    private double markerStart(String marker, long from) {
        double[] start = {Double.NaN};
        scan(from, Long.MAX_VALUE, (line, endOffset) -> {
            if (line.contains(AccessLogEntry.TAG) && line.contains(marker)) {
                AccessLogEntry.parse(line).ifPresent(e -> start[0] = e.startTime());
                return false;
            }
            return true;
        });
        return start[0];
    }

    private long currentSize() {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the store's access log " + file, e);
        }
    }

    /** Receives each complete line and the offset just past it; returns false to stop. */
    private interface LineVisitor {
        boolean visit(String line, long endOffset);
    }

    /** Visits complete UTF-8 lines from {@code from} up to {@code end}, reading in blocks. */
    private void scan(long from, long end, LineVisitor visitor) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
             InputStream in = new BufferedInputStream(Channels.newInputStream(channel.position(from)), 1 << 16)) {
            ByteArrayOutputStream line = new ByteArrayOutputStream(512);
            long offset = from;
            int b;
            while (offset < end && (b = in.read()) >= 0) {
                offset++;
                if (b != '\n') {
                    line.write(b);
                    continue;
                }
                if (!visitor.visit(line.toString(StandardCharsets.UTF_8), offset)) {
                    return;
                }
                line.reset();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the store's access log " + file, e);
        }
    }
}
