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
 */
public record CommitSettings(Duration retention, Duration claimSettle, Duration claimTimeout, Clock clock) {

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
    }

    public static CommitSettings defaults() {
        return new CommitSettings(DEFAULT_RETENTION, DEFAULT_CLAIM_SETTLE, DEFAULT_CLAIM_TIMEOUT, Clock.systemUTC());
    }

    public CommitSettings withRetention(Duration value) {
        return new CommitSettings(value, claimSettle, claimTimeout, clock);
    }

    public CommitSettings withClaimTimeout(Duration value) {
        return new CommitSettings(retention, claimSettle, value, clock);
    }
}
