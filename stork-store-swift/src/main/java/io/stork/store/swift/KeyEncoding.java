package io.stork.store.swift;

import java.nio.charset.StandardCharsets;

/** Percent-encoding of URL path segments and query values (RFC 3986), which the JDK does not offer. */
final class KeyEncoding {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private KeyEncoding() {
    }

    /** Encodes an object name for a URL path; '/' stays, so a key's "directories" stay visible in logs. */
    static String path(String value) {
        return encode(value, true);
    }

    /** Encodes a query parameter value. */
    static String query(String value) {
        return encode(value, false);
    }

    private static String encode(String value, boolean keepSlash) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        StringBuilder out = new StringBuilder(bytes.length + 16);
        for (byte raw : bytes) {
            int b = raw & 0xff;
            if (b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
                    || b == '-' || b == '.' || b == '_' || b == '~' || keepSlash && b == '/') {
                out.append((char) b);
            } else {
                out.append('%').append(HEX[b >> 4]).append(HEX[b & 0xf]);
            }
        }
        return out.toString();
    }
}
