package io.stork.hadoop;

import java.io.IOException;

/**
 * A directory holds parts written by Stork task attempts but no manifest names them: the job that wrote
 * them has not committed (it failed, or is still running). Reading it would mix attempts, so it fails
 * unless the reader asks for raw objects ({@code fs.stork.read.raw=true}).
 */
public class IncompleteDatasetException extends IOException {

    public IncompleteDatasetException(String directory, String example) {
        super("incomplete dataset " + directory + ": it holds parts of Stork task attempts (e.g. " + example
                + ") but no committed _SUCCESS manifest; the job that wrote them did not commit. Set "
                + "fs.stork.read.raw=true to read the raw objects anyway");
    }
}
