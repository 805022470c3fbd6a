package io.stork.store.it;

import io.stork.store.ObjectStore;
import io.stork.store.StoreApi;
import io.stork.store.contract.AbstractObjectStoreContractTest;

/** The S3 client against the real local store passes the ObjectStore contract. */
class S3ObjectStoreContractIT extends AbstractObjectStoreContractTest {

    @Override
    protected ObjectStore openStore() {
        return TestStores.open(StoreApi.S3);
    }
}
