package io.stork.hadoop.commit;

import io.stork.manifest.Manifest;
import io.stork.manifest.ManifestCodec;
import io.stork.manifest.ManifestPart;
import io.stork.manifest.PartNames;
import io.stork.manifest.commit.CreateConflictException;
import io.stork.manifest.commit.DatasetStorage;
import io.stork.store.ByteRange;
import io.stork.store.ListEntry;
import io.stork.store.ListRequest;
import io.stork.store.ObjectExistsException;
import io.stork.store.ObjectKey;
import io.stork.store.ObjectNotFoundException;
import io.stork.store.ObjectStore;
import io.stork.store.ObjectStream;
import io.stork.store.PutBody;
import io.stork.store.PutOptions;
import io.stork.store.StoreIterator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A dataset's commit storage straight over the object store: what the file system's emulation of the
 * classic committer commits through, so that it takes the same claims and writes the same manifests as
 * Stork's own committers.
 */
final class StoreDatasetStorage implements DatasetStorage {

    private final ObjectStore store;
    private final String bucket;
    private final String rootKey;

    StoreDatasetStorage(ObjectStore store, String bucket, String rootKey) {
        this.store = store;
        this.bucket = bucket;
        this.rootKey = rootKey;
    }

    private String key(String relative) {
        return rootKey.isEmpty() ? relative : rootKey + "/" + relative;
    }

    @Override
    public String location() {
        return "stork://" + bucket + "/" + rootKey;
    }

    @Override
    public CreateGuarantee createGuarantee() {
        if (!store.supportsConditionalCreate()) {
            return CreateGuarantee.NONE;
        }
        return store.conditionalCreateIsAtomic() ? CreateGuarantee.ATOMIC : CreateGuarantee.PER_REQUEST;
    }

    @Override
    public Optional<Manifest> readManifest() throws IOException {
        String manifestKey = key(PartNames.MANIFEST);
        try (ObjectStream in = store.get(ObjectKey.of(bucket, manifestKey), ByteRange.all())) {
            return ManifestCodec.readIfStork(in, "stork://" + bucket + "/" + manifestKey,
                    io.stork.manifest.segment.SegmentSource.of(relative -> open(key(relative)), location()));
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        }
    }

    @Override
    public void writeManifest(byte[] json, boolean createOnly) throws IOException {
        put(key(PartNames.MANIFEST), json, createOnly && store.supportsConditionalCreate());
    }

    private java.io.InputStream open(String key) throws IOException {
        try {
            return store.get(ObjectKey.of(bucket, key), ByteRange.all());
        } catch (ObjectNotFoundException e) {
            throw new java.io.FileNotFoundException("stork://" + bucket + "/" + key);
        }
    }

    @Override
    public void writeSegment(String name, byte[] bytes) throws IOException {
        put(key(io.stork.manifest.segment.SegmentSource.DIRECTORY + "/" + name), bytes, false);
    }

    @Override
    public void createClaim(long generation, byte[] content) throws IOException {
        put(claimKey(generation), content, true);
    }

    private String claimKey(long generation) {
        return key(PartNames.INTERNAL_DIRECTORY + "/generation-" + generation);
    }

    private void put(String key, byte[] content, boolean ifNotExists) throws IOException {
        PutOptions options = ifNotExists ? PutOptions.defaults().withIfNotExists() : PutOptions.defaults();
        try {
            store.put(ObjectKey.of(bucket, key), PutBody.of(content), options);
        } catch (ObjectExistsException e) {
            throw new CreateConflictException("stork://" + bucket + "/" + key + " exists", e);
        }
    }

    @Override
    public Optional<byte[]> readClaim(long generation) throws IOException {
        try (ObjectStream in = store.get(ObjectKey.of(bucket, claimKey(generation)), ByteRange.all())) {
            return Optional.of(in.readAllBytes());
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        }
    }

    @Override
    public List<ManifestPart> plainFiles() throws IOException {
        List<ManifestPart> adopted = new ArrayList<>();
        String prefix = rootKey.isEmpty() ? "" : rootKey + "/";
        try (StoreIterator<ListEntry> it = store.list(ListRequest.of(bucket, prefix))) {
            while (it.hasNext()) {
                if (!(it.next() instanceof ListEntry.ListedObject object) || object.name().endsWith("/")) {
                    continue;
                }
                String relative = object.name().substring(prefix.length());
                if (PartNames.isHidden(relative) || PartNames.isAttemptNamed(PartNames.fileName(relative))) {
                    continue;
                }
                adopted.add(new ManifestPart(relative, object.length(), object.etag(), "adopted", 0, 0,
                        object.lastModified() == null ? 0 : object.lastModified().toEpochMilli(), null, null));
            }
        }
        return adopted;
    }
}
