package io.stork.manifest.commit;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the commit point.
 *
 * @param retention    how long parts a generation dropped stay readable (and listed for time travel)
 *                     before vacuum may delete them ({@code fs.stork.retention}, default 7 days as Delta's
 *                     {@code deletedFileRetentionDuration})
 * @param claimSettle  how long a claim must survive on a store whose creates are checked per request
 * @param claimTimeout a claim whose manifest has not appeared this long after it was taken belongs to a
 *                     job that died; a later commit takes the next generation instead of waiting
 * @param clock        the writer's clock (commit times, retention)
 * @param inlineParts  a manifest lists at most this many parts itself; past it, a commit seals them into
 *                     segments ({@code fs.stork.manifest.inline.parts}, docs/manifest-format.md#segments)
 */
public record CommitSettings(Duration retention, Duration claimSettle, Duration claimTimeout, Clock clock,
                             int inlineParts) {

    /** Below this many parts a dataset has no segment: its commits stay one manifest PUT. */
    public static final int DEFAULT_INLINE_PARTS = 10_000;

    public CommitSettings(Duration retention, Duration claimSettle, Duration claimTimeout, Clock clock) {
        this(retention, claimSettle, claimTimeout, clock, DEFAULT_INLINE_PARTS);
    }

    public static final Duration DEFAULT_RETENTION = Duration.ofDays(7);
    public static final Duration DEFAULT_CLAIM_SETTLE = Duration.ofMillis(500);
    public static final Duration DEFAULT_CLAIM_TIMEOUT = Duration.ofSeconds(60);

    public CommitSettings {
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(claimSettle, "claimSettle");
        Objects.requireNonNull(claimTimeout, "claimTimeout");
        Objects.requireNonNull(clock, "clock");
        if (retention.isNegative() || claimTimeout.isNegative() || claimSettle.isNegative()) {
            throw new IllegalArgumentException("commit durations must not be negative");
        }
        if (inlineParts < 1) {
            throw new IllegalArgumentException("fs.stork.manifest.inline.parts must be at least 1, not " + inlineParts);
        }
    }

    public static CommitSettings defaults() {
        return new CommitSettings(DEFAULT_RETENTION, DEFAULT_CLAIM_SETTLE, DEFAULT_CLAIM_TIMEOUT, Clock.systemUTC());
    }

    public CommitSettings withRetention(Duration value) {
        return new CommitSettings(value, claimSettle, claimTimeout, clock, inlineParts);
    }

    public CommitSettings withClaimTimeout(Duration value) {
        return new CommitSettings(retention, claimSettle, value, clock, inlineParts);
    }

    public CommitSettings withInlineParts(int value) {
        return new CommitSettings(retention, claimSettle, claimTimeout, clock, value);
    }
}
