package io.stork.store;

import java.util.Objects;

/**
 * A precondition on a GET, on the object's entity tag (HTTP {@code If-Match} / {@code If-None-Match}).
 *
 * <ul>
 *   <li>{@link #ifMatch}: read only the version the caller knows (a part named by a manifest); another
 *       version fails with {@link ObjectChangedException} (HTTP 412) instead of returning other bytes.</li>
 *   <li>{@link #ifNoneMatch}: revalidate a cached copy; an unchanged object answers
 *       {@link NotModifiedException} (HTTP 304, no body).</li>
 * </ul>
 *
 * @param etag  the entity tag without quotes, or null for {@link #NONE}
 * @param match true for If-Match, false for If-None-Match
 */
public record ReadCondition(String etag, boolean match) {

    public static final ReadCondition NONE = new ReadCondition(null, false);

    public static ReadCondition ifMatch(String etag) {
        return new ReadCondition(Objects.requireNonNull(etag, "etag"), true);
    }

    public static ReadCondition ifNoneMatch(String etag) {
        return new ReadCondition(Objects.requireNonNull(etag, "etag"), false);
    }

    public boolean isNone() {
        return etag == null;
    }

    /** The header value: the entity tag quoted, as HTTP requires. */
    public String headerValue() {
        return etag == null ? null : "\"" + etag + "\"";
    }

    /** Whether an object with {@code actualEtag} passes (for stores that evaluate conditions themselves). */
    public boolean admits(String actualEtag) {
        if (etag == null) {
            return true;
        }
        boolean same = etag.equals(ObjectInfo.unquoteEtag(actualEtag));
        return match == same;
    }
}
