package io.stork.store.it;

import io.stork.store.ObjectStore;
import io.stork.store.contract.AbstractObjectStoreContractTest;

/** The S3 client with conditional writes, against the S3 gateway that honours them, passes the contract. */
class ConditionalS3ObjectStoreContractIT extends AbstractObjectStoreContractTest {

    @Override
    protected ObjectStore openStore() {
        return ConditionalWritesStoreTest.open();
    }
}
