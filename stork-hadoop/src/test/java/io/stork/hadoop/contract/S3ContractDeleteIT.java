package io.stork.hadoop.contract;

import io.stork.hadoop.StorkContract;
import io.stork.store.StoreApi;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractDeleteTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

public class S3ContractDeleteIT extends AbstractContractDeleteTest {

    @Override
    protected AbstractFSContract createContract(Configuration conf) {
        return new StorkContract(conf, StoreApi.S3);
    }
}
