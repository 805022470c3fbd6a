package io.stork.hadoop.contract;

import io.stork.hadoop.StorkContract;
import io.stork.store.StoreApi;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class SwiftContractVectoredReadIT extends AbstractContractVectoredReadTest {

    public SwiftContractVectoredReadIT(String bufferType) {
        super(bufferType);
    }

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new StorkContract(conf, StoreApi.SWIFT);
    }
}
