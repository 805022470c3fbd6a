package io.stork.manifest.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestPart;
import java.util.List;

/** How a commit merges its parts with the dataset's previous ones: what it keeps, and what it is called. */
public interface MergePlan {

    /** Keeps everything: an append (and the classic committer's commits). */
    MergePlan APPEND = new MergePlan() {
        @Override
        public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
            return previous;
        }

        @Override
        public Manifest.Operation operation() {
            return Manifest.Operation.APPEND;
        }
    };

    /** Keeps everything and adds nothing: maintenance's fencing generation ({@link Fences}). */
    MergePlan MAINTENANCE = new MergePlan() {
        @Override
        public List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written) {
            return previous;
        }

        @Override
        public Manifest.Operation operation() {
            return Manifest.Operation.MAINTENANCE;
        }
    };

    /** The previous parts that survive the commit; the others become removed parts of the new generation. */
    List<ManifestPart> kept(List<ManifestPart> previous, List<ManifestPart> written);

    /** The operation recorded when the dataset had parts or a manifest before (else it is a create). */
    Manifest.Operation operation();
}
