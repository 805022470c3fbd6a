package io.stork.hadoop;

import org.apache.hadoop.fs.Path;

/** A file a task attempt wrote: its final path, length and the store's ETag (null where none). */
public record WrittenFile(Path path, long length, String etag) {
}
