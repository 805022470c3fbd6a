package io.stork.spark;

import io.stork.commit.WrittenRecords;
import io.stork.spark.skipping.SkippingSettings;
import io.stork.spark.skipping.WriteStatistics;
import java.io.Serializable;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.mapreduce.Job;
import org.apache.hadoop.mapreduce.TaskAttemptContext;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.execution.datasources.FileFormat;
import org.apache.spark.sql.execution.datasources.OutputWriter;
import org.apache.spark.sql.execution.datasources.OutputWriterFactory;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.StructType;
import scala.Option;
import scala.collection.immutable.Map;
import scala.collection.immutable.Seq;

/**
 * A file format that writes through another and counts the records of each file it writes, and gathers
 * its data-skipping statistics ({@link WriteStatistics}), handing both to the task commit
 * ({@link WrittenRecords}) when the file is closed. Any format: the rows are seen before they are encoded.
 * Reading is not its business.
 */
final class RecordCountingFileFormat implements FileFormat, Serializable {

    private final FileFormat delegate;
    private final StructType partitionSchema;

    RecordCountingFileFormat(FileFormat delegate, StructType partitionSchema) {
        this.delegate = delegate;
        this.partitionSchema = partitionSchema;
    }

    @Override
    public Option<StructType> inferSchema(SparkSession session, Map<String, String> options, Seq<FileStatus> files) {
        return delegate.inferSchema(session, options, files);
    }

    @Override
    public OutputWriterFactory prepareWrite(SparkSession session, Job job, Map<String, String> options,
                                            StructType dataSchema) {
        String formatName = delegate instanceof org.apache.spark.sql.sources.DataSourceRegister register
                ? register.shortName() : null;
        java.util.Map<String, String> datasetSettings = SkippingSettings.ofDataset(job.getConfiguration());
        WriteStatistics statistics = WriteStatistics.forWrite(session, formatName, options, datasetSettings,
                dataSchema);
        SkippingSettings.recordOnDataset(job.getConfiguration(), options, datasetSettings);
        io.stork.spark.schema.WrittenSchema.handOver(job.getConfiguration(), formatName, dataSchema, partitionSchema);
        io.stork.commit.DatasetProperties.recordWriteOptions(job.getConfiguration(),
                scala.jdk.javaapi.CollectionConverters.asJava(options));
        return new CountingFactory(delegate.prepareWrite(session, job, options, dataSchema), statistics);
    }

    @Override
    public boolean supportDataType(DataType dataType) {
        return delegate.supportDataType(dataType);
    }

    @Override
    public boolean supportFieldName(String name) {
        return delegate.supportFieldName(name);
    }

    @Override
    public boolean allowDuplicatedColumnNames() {
        return delegate.allowDuplicatedColumnNames();
    }

    @Override
    public String toString() {
        return delegate.toString();
    }

    private static final class CountingFactory extends OutputWriterFactory {
        private final OutputWriterFactory delegate;
        private final WriteStatistics statistics;

        CountingFactory(OutputWriterFactory delegate, WriteStatistics statistics) {
            this.delegate = delegate;
            this.statistics = statistics;
        }

        @Override
        public String getFileExtension(TaskAttemptContext context) {
            return delegate.getFileExtension(context);
        }

        @Override
        public OutputWriter newInstance(String path, StructType dataSchema, TaskAttemptContext context) {
            return new CountingWriter(delegate.newInstance(path, dataSchema, context), path, context,
                    statistics.newFile());
        }
    }

    private static final class CountingWriter extends OutputWriter {
        private final OutputWriter delegate;
        private final String handedOutPath;
        private final TaskAttemptContext task;
        private final WriteStatistics.FileStatistics statistics;
        private long records;

        CountingWriter(OutputWriter delegate, String handedOutPath, TaskAttemptContext task,
                       WriteStatistics.FileStatistics statistics) {
            this.delegate = delegate;
            this.handedOutPath = handedOutPath;
            this.task = task;
            this.statistics = statistics;
        }

        @Override
        public void write(InternalRow row) {
            delegate.write(row);
            records++;
            if (statistics != null) {
                statistics.add(row);
            }
        }

        @Override
        public void close() {
            delegate.close();
            WrittenRecords.record(task.getConfiguration(), handedOutPath, records,
                    statistics == null ? null : statistics.json());
        }

        @Override
        public String path() {
            return delegate.path();
        }
    }
}
