package io.stork.store.memory;

import io.stork.store.ObjectStore;
import io.stork.store.contract.AbstractObjectStoreContractTest;

/** The in-memory store passes the same contract as the real clients. */
class InMemoryObjectStoreContractTest extends AbstractObjectStoreContractTest {

    @Override
    protected ObjectStore openStore() {
        return new InMemoryObjectStore();
    }
}
