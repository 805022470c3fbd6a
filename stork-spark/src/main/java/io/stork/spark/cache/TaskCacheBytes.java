package io.stork.spark.cache;

import io.stork.hadoop.io.ThreadIOStatistics;
import java.io.Serializable;
import org.apache.spark.TaskContext;
import org.apache.spark.sql.execution.metric.SQLMetric;
import scala.collection.AbstractIterator;
import scala.collection.Iterator;
import scala.runtime.AbstractFunction1;

/**
 * Counts, per task, the bytes its scan read from the executor's block cache and those the cache fetched from
 * the store, into SQL metrics of the query: the task's own share (Hadoop's thread-level I/O statistics,
 * {@link ThreadIOStatistics}) of a cache its executor's tasks share. Recorded when the scan's iterator ends,
 * or when the task ends if it stops early.
 */
public final class TaskCacheBytes<T> extends AbstractFunction1<Iterator<T>, Iterator<T>> implements Serializable {

    private static final long serialVersionUID = 1L;
    private final SQLMetric served;
    private final SQLMetric fetched;

    public TaskCacheBytes(SQLMetric served, SQLMetric fetched) {
        this.served = served;
        this.fetched = fetched;
    }

    @Override
    public Iterator<T> apply(Iterator<T> rows) {
        ThreadIOStatistics.CacheBytes counting = ThreadIOStatistics.counting();
        boolean[] recorded = {false};
        Runnable record = () -> {
            if (!recorded[0]) {
                recorded[0] = true;
                long[] bytes = counting.sinceStart();
                served.add(bytes[0]);
                fetched.add(bytes[1]);
            }
        };
        TaskContext task = TaskContext.get();
        if (task != null) {
            task.addTaskCompletionListener(new org.apache.spark.util.TaskCompletionListener() {
                @Override
                public void onTaskCompletion(TaskContext context) {
                    record.run();
                }
            });
        }
        return new AbstractIterator<T>() {
            @Override
            public boolean hasNext() {
                boolean more = rows.hasNext();
                if (!more) {
                    record.run();
                }
                return more;
            }

            @Override
            public T next() {
                return rows.next();
            }
        };
    }
}
