package io.stork.hadoop.contract;

import io.stork.hadoop.StorkContract;
import io.stork.store.StoreApi;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's vectoredread contract with the block cache on: streams served from cached blocks behave as the store's. */
public class SwiftCachedContractVectoredReadIT extends AbstractContractVectoredReadTest {

    public SwiftCachedContractVectoredReadIT(String bufferType) {
        super(bufferType);
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new StorkContract(conf, StoreApi.SWIFT, true);
    }
}
