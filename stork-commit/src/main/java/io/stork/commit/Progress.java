package io.stork.commit;

import java.io.PrintStream;
import java.time.Duration;

/**
 * Progress of a long tool command on standard error, at most once per interval ({@value #INTERVAL_KEY},
 * 10 s by default), so that a command over millions of objects shows it is moving and a short one says
 * nothing more than its summary.
 */
final class Progress {

    static final String INTERVAL_KEY = "fs.stork." + io.stork.hadoop.settings.StorkSettings.PROGRESS_INTERVAL;

    private final PrintStream out;
    private final String command;
    private final long intervalNanos;
    private long last = System.nanoTime();

    Progress(PrintStream out, String command, Duration interval) {
        this.out = out;
        this.command = command;
        this.intervalNanos = interval.toNanos();
    }

    static Progress of(org.apache.hadoop.conf.Configuration conf, String command) {
        return new Progress(System.err, command, io.stork.hadoop.settings.StorkSettings.of(conf, null).progressInterval());
    }

    /** Prints the line if the interval has passed since the last one. */
    void update(String format, Object... args) {
        long now = System.nanoTime();
        if (now - last >= intervalNanos) {
            last = now;
            out.println(command + ": " + String.format(format, args));
            out.flush();
        }
    }

    /** Prints the line now. */
    void say(String format, Object... args) {
        last = System.nanoTime();
        out.println(command + ": " + String.format(format, args));
        out.flush();
    }
}
