package io.stork.hadoop.contract;

import io.stork.hadoop.StorkContract;
import io.stork.store.StoreApi;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's seek contract with the block cache on: streams served from cached blocks behave as the store's. */
public class SwiftCachedContractSeekIT extends AbstractContractSeekTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new StorkContract(conf, StoreApi.SWIFT, true);
    }
}
