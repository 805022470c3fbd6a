"""A dataset at generation 1, then an append job whose tasks write slowly, then every generation read back.

Run with spark-submit and the runtime jar while the dataset tool runs against the same dataset (the test
starts the tool when the append's first parts are in the store). Arguments: <dataset uri> <seconds per task>.
Prints CREATED, then APPEND ok|failed: <first line>, then one line per readable generation:
GEN <n> <operation> rows=<count> distinct=<count> min=<id> max=<id> sum=<sum>, then DONE.
"""
import sys
import time

from pyspark.sql import SparkSession

path = sys.argv[1]
seconds = float(sys.argv[2])
spark = SparkSession.builder.appName("stork-slow-append").getOrCreate()
sc = spark.sparkContext
jvm = sc._jvm
fs = jvm.org.apache.hadoop.fs.Path(path).getFileSystem(sc._jsc.hadoopConfiguration())
fs.store().createBucket(jvm.java.net.URI(path).getAuthority())

spark.range(0, 400, 1, 4).write.parquet(path)
print("CREATED", flush=True)


def slow(rows):
    rows = list(rows)
    time.sleep(seconds)
    return rows


slow_rows = spark.range(400, 1200, 1, 8).rdd.mapPartitions(slow)
try:
    spark.createDataFrame(slow_rows, "id long").write.mode("append").parquet(path)
    print("APPEND ok", flush=True)
except Exception as e:  # the job's failure, as a user sees it
    text = str(getattr(e, "java_exception", e)) or str(e)
    print("APPEND failed: " + text.strip().splitlines()[0], flush=True)

manifest = sc._jvm.io.stork.manifest.ManifestCodec.read(fs.open(sc._jvm.org.apache.hadoop.fs.Path(path + "/_SUCCESS")), path)
for info in manifest.history():
    g = info.generation()
    df = spark.read.parquet("%s@v%d" % (path, g))
    row = df.selectExpr("count(*) AS n", "count(DISTINCT id) AS d", "min(id) AS lo", "max(id) AS hi",
                        "sum(id) AS s").collect()[0]
    print("GEN %d %s rows=%d distinct=%d min=%s max=%s sum=%s" % (g, info.operation().jsonName(), row.n, row.d,
                                                                 row.lo, row.hi, row.s), flush=True)
print("DONE", flush=True)
