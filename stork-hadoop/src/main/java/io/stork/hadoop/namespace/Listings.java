package io.stork.hadoop.namespace;

import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.hadoop.IncompleteDatasetException;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.StoreIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;

/**
 * Directory listings. A directory of a dataset with a Stork manifest (its own, or a dataset root's above
 * it) lists exactly the parts the manifest names, with no LIST: one GET of the manifest, and at the
 * dataset root one conditional GET to revalidate a cached one, so each query lists the generation current
 * when it started. Other directories list normally (LIST with delimiter), but one that holds Stork
 * attempt parts no manifest names fails with {@link IncompleteDatasetException}, unless
 * {@code fs.stork.read.raw}.
 */
public final class Listings {

    private final Namespace namespace;
    private final KeyPaths paths;
    private final DatasetManifests manifests;

    public Listings(Namespace namespace) {
        this.namespace = namespace;
        this.paths = namespace.paths();
        this.manifests = namespace.manifests();
    }

    public FileStatus[] list(Path qualified, String key) throws IOException {
        Optional<FileStatus[]> virtual = namespace.commits().list(key);
        if (virtual.isPresent()) {
            return virtual.get();
        }
        Optional<FileStatus> file = namespace.fileIfNamedLikeOne(qualified, key);
        if (file.isPresent()) {
            return new FileStatus[] {file.get()}; // a file lists as itself
        }
        Optional<LoadedManifest> manifest = namespace.manifestForListing(key);
        if (manifest.isPresent()) {
            return fromManifest(qualified, key, manifest.get());
        }
        FileStatus[] listed = listObjects(qualified, key);
        return namespace.readRaw() || Namespace.isInternal(key) ? listed : checkComplete(qualified, key, listed);
    }

    private FileStatus[] fromManifest(Path qualified, String key, LoadedManifest manifest) throws IOException {
        String relative = manifest.relative(key);
        if (!manifest.isDirectory(relative)) {
            // Not a directory of the dataset: a part (lists as itself) or nothing.
            FileStatus status = namespace.status(qualified, key);
            return status.isFile() ? new FileStatus[] {status} : new FileStatus[0];
        }
        List<FileStatus> result = new ArrayList<>();
        for (String directory : manifest.subdirectories(relative)) {
            result.add(paths.directory(paths.pathOf(manifest.rootKey().isEmpty() ? directory
                    : manifest.rootKey() + "/" + directory)));
        }
        paths.listedParts(manifest, relative, result);
        return result.toArray(new FileStatus[0]);
    }

    /**
     * A plain listing that shows attempt parts: either a partition directory of a dataset whose root
     * manifest is above it (filter by that manifest), or the output of a job that never committed.
     */
    private FileStatus[] checkComplete(Path qualified, String key, FileStatus[] listed) throws IOException {
        for (FileStatus status : listed) {
            if (status.isFile() && PartNames.isAttemptNamed(status.getPath().getName())) {
                // "No manifest" may have been cached before the first commit: ask the store again.
                Optional<LoadedManifest> own = manifests.current(key);
                if (own.isPresent()) {
                    return fromManifest(qualified, key, own.get());
                }
                Optional<LoadedManifest> covering = key.isEmpty() ? Optional.empty() : manifests.findCovering(key);
                if (covering.isPresent()) {
                    return fromManifest(qualified, key, covering.get());
                }
                throw new IncompleteDatasetException(qualified.toString(), status.getPath().getName());
            }
        }
        return listed;
    }

    private FileStatus[] listObjects(Path qualified, String key) throws IOException {
        String prefix = key.isEmpty() ? "" : key + "/";
        List<FileStatus> result = new ArrayList<>();
        try (StoreIterator<ListEntry> it = namespace.store().list(ListRequest.of(paths.bucket(), prefix)
                .withDelimiter("/"))) {
            while (it.hasNext()) {
                ListEntry entry = it.next();
                if (!entry.name().equals(prefix)) { // not the directory's own marker
                    result.add(statusOf(entry));
                }
            }
        }
        if (result.isEmpty()) {
            FileStatus status = namespace.status(qualified, key);
            return status.isFile() ? new FileStatus[] {status} : new FileStatus[0];
        }
        return result.toArray(new FileStatus[0]);
    }

    private FileStatus statusOf(ListEntry entry) {
        return entry instanceof ListEntry.ListedObject object
                ? paths.file(paths.pathOf(object.name()), object.length(),
                        object.lastModified() == null ? 0 : object.lastModified().toEpochMilli())
                : paths.directory(paths.pathOf(entry.name()));
    }

    /**
     * Lists a directory page by page as the caller iterates (one LIST per 1,000 entries); an empty result
     * is resolved as {@link #list} does (a file lists as itself; a missing path fails). The first page is
     * fetched before returning, so that a missing path fails here, as the API requires.
     */
    public RemoteIterator<FileStatus> iterator(Path qualified, String key) throws IOException {
        if (!namespace.readRaw() || namespace.commits().inTemporaryTree(key)) {
            // A dataset (manifest) is listed whole from the manifest; attempt parts must be checked
            // against one before anything is returned, so the guarded path lists eagerly.
            return of(list(qualified, key));
        }
        String prefix = key.isEmpty() ? "" : key + "/";
        StoreIterator<ListEntry> pages = namespace.store().list(ListRequest.of(paths.bucket(), prefix).withDelimiter("/"));
        RemoteIterator<FileStatus> iterator = new RemoteIterator<>() {
            private FileStatus next;
            private boolean any;
            private Iterator<FileStatus> fallback;

            @Override
            public boolean hasNext() throws IOException {
                if (fallback != null) {
                    return fallback.hasNext();
                }
                while (next == null && pages.hasNext()) {
                    ListEntry entry = pages.next();
                    if (!entry.name().equals(prefix)) {
                        next = statusOf(entry);
                    }
                }
                if (next == null && !any) {
                    FileStatus status = namespace.status(qualified, key);
                    fallback = (status.isFile() ? List.of(status) : List.<FileStatus>of()).iterator();
                    return fallback.hasNext();
                }
                return next != null;
            }

            @Override
            public FileStatus next() throws IOException {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                if (fallback != null) {
                    return fallback.next();
                }
                any = true;
                FileStatus result = next;
                next = null;
                return result;
            }
        };
        iterator.hasNext();
        return iterator;
    }

    /**
     * A recursive listing: a dataset's parts from its manifest, or one flat LIST of the prefix (1 call
     * per 1,000 files, however deep the tree), fetched page by page as the caller iterates. Directory
     * markers are not files and are skipped.
     */
    public RemoteIterator<LocatedFileStatus> files(Path qualified, String key) throws IOException {
        Optional<LoadedManifest> manifest = namespace.manifestForListing(key);
        if (manifest.isPresent() && manifest.get().isDirectory(manifest.get().relative(key))) {
            String relative = manifest.get().relative(key);
            List<LocatedFileStatus> parts = new ArrayList<>();
            List<ManifestPart> all = manifest.get().manifest().parts();
            for (int ordinal = 0; ordinal < all.size(); ordinal++) {
                if (relative.isEmpty() || all.get(ordinal).path().startsWith(relative + "/")) {
                    parts.add((LocatedFileStatus) paths.listedPart(manifest.get(), ordinal));
                }
            }
            return of(parts.toArray(new LocatedFileStatus[0]));
        }
        String prefix = key.isEmpty() ? "" : key + "/";
        StoreIterator<ListEntry> pages = namespace.store().list(ListRequest.of(paths.bucket(), prefix));
        if (!pages.hasNext()) {
            FileStatus status = namespace.status(qualified, key); // a file, an empty directory, or not found
            return of(status.isFile() ? new LocatedFileStatus[] {new LocatedFileStatus(status, null)}
                    : new LocatedFileStatus[0]);
        }
        return new RemoteIterator<>() {
            private LocatedFileStatus next;

            @Override
            public boolean hasNext() throws IOException {
                while (next == null && pages.hasNext()) {
                    ListEntry entry = pages.next();
                    if (entry instanceof ListEntry.ListedObject object && !object.name().endsWith("/")) {
                        next = new LocatedFileStatus(statusOf(entry), null);
                    }
                }
                return next != null;
            }

            @Override
            public LocatedFileStatus next() throws IOException {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                LocatedFileStatus result = next;
                next = null;
                return result;
            }
        };
    }

    /** Every key under a prefix (for recursive delete and rename). */
    public List<String> allKeysUnder(String prefix) throws IOException {
        List<String> keys = new ArrayList<>();
        try (StoreIterator<ListEntry> it = namespace.store().list(ListRequest.of(paths.bucket(), prefix))) {
            while (it.hasNext()) {
                keys.add(it.next().name());
            }
        }
        return keys;
    }

    static <T> RemoteIterator<T> of(T[] items) {
        Iterator<T> it = java.util.Arrays.asList(items).iterator();
        return new RemoteIterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public T next() {
                return it.next();
            }
        };
    }
}
