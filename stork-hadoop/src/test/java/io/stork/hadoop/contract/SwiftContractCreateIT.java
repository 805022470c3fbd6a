package io.stork.hadoop.contract;

import io.stork.hadoop.StorkContract;
import io.stork.store.StoreApi;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractCreateTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.Test;

public class SwiftContractCreateIT extends AbstractContractCreateTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new StorkContract(conf, StoreApi.SWIFT);
    }

    /**
     * Skipped by design: create(overwrite=true) makes no call before the upload (the cost target is one
     * PUT), so it cannot see that the path is an empty directory; S3A in create-performance mode likewise.
     */
    @Test
    @Override
    public void testOverwriteEmptyDirectory() {
        org.apache.hadoop.fs.contract.ContractTestUtils.skip("create(overwrite=true) does not probe for a directory: one PUT per file (docs/hadoop-filesystem.md)");
    }
}
