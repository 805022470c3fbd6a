package io.stork.store;

/** The REST calls a client makes, as billed by object stores and counted at the store's access log. */
public enum CallType {
    AUTH,
    PUT,
    GET,
    HEAD,
    LIST,
    DELETE,
    BULK_DELETE,
    COPY,
    MULTIPART_INITIATE,
    MULTIPART_PART,
    MULTIPART_COMPLETE,
    MULTIPART_ABORT,
    BUCKET_CREATE,
    BUCKET_HEAD,
    BUCKET_DELETE
}
