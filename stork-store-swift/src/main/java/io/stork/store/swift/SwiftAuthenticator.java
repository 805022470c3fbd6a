package io.stork.store.swift;

import java.io.IOException;

/** Obtains a token and storage URL. Tempauth (v1) now; Keystone v3 later, behind the same seam. */
interface SwiftAuthenticator {

    SwiftSession authenticate() throws IOException;
}
