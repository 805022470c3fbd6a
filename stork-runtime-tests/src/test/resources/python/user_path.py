"""A pyspark user's session against Stork, as a user runs it (spark-submit or plain python).

Every Spark write API and read API once per stork:// bucket, and, when S3A is configured, an s3a:// write in
the same session. Each step prints one line, "STEP <json>", with the rows it read back, the committer or
protocol that ran, and the REST calls Stork's client counted while it ran; the test compares those with the
store's access log. Arguments: <run id> <bucket>...; buckets are configured by the caller (spark.hadoop.*).
"""
import json
import os
import sys
import tempfile
import urllib.request

from pyspark.sql import SparkSession

from steps import Steps

run_id = sys.argv[1]
buckets = sys.argv[2:]
spark = SparkSession.builder.appName("stork-user-path").getOrCreate()
sc = spark.sparkContext
jvm = sc._jvm
hconf = sc._jsc.hadoopConfiguration()


STEPS = Steps(spark)
client_calls = STEPS.client_calls
mark = STEPS.mark


def step(name, bucket, path, action):
    STEPS.step(name, bucket, action, path)


def protocol_class():
    return spark.conf.get("spark.sql.sources.commitProtocolClass", "")


for bucket in buckets:
    base = "stork://%s/%s" % (bucket, run_id)
    fs = jvm.org.apache.hadoop.fs.Path(base).getFileSystem(hconf)
    step("create-bucket", bucket, base, lambda: fs.store().createBucket(bucket))

    one = base + "/one-task"
    step("sql-one-task", bucket, one, lambda: (
        spark.range(1).selectExpr("CAST(id AS STRING) AS value").coalesce(1).write.text(one),
        {"protocol": protocol_class()})[1])
    step("sql-one-task-read", bucket, one, lambda: {"rows": [r.value for r in spark.read.text(one).collect()]})

    # Issue 26: the schema in the manifest makes a one-row Parquet read the manifest and one GET of the part;
    # a catalog table on the dataset reads through the manifest too, with the same calls.
    one_row = base + "/one-row"
    step("sql-one-row-parquet", bucket, one_row, lambda: spark.range(1)
         .selectExpr("id", "CAST(id AS STRING) AS s").coalesce(1).write.parquet(one_row))
    step("sql-one-row-parquet-read", bucket, one_row,
         lambda: {"rows": [r.s for r in spark.read.parquet(one_row).collect()]})
    table = "one_row_" + bucket.replace("-", "_")
    step("sql-create-table", bucket, one_row,
         lambda: spark.sql("CREATE TABLE %s USING parquet LOCATION '%s'" % (table, one_row)) and None)
    step("sql-read-table", bucket, one_row, lambda: {"rows": [r.s for r in spark.table(table).collect()]})

    df = spark.range(0, 40, 1, 2).selectExpr("id", "CAST(id % 4 AS STRING) AS k", "CAST(id * 2 AS STRING) AS v")
    for fmt in ["parquet", "orc", "json", "csv"]:
        path = "%s/fmt-%s" % (base, fmt)
        step("sql-write-" + fmt, bucket, path, lambda: df.write.format(fmt).option("header", "true").save(path))
        step("sql-read-" + fmt, bucket, path, lambda: {"rows": spark.read.format(fmt).option("header", "true")
             .schema("id LONG, k STRING, v STRING").load(path).selectExpr("sum(id)").first()[0]})
    path = base + "/fmt-text"
    step("sql-write-text", bucket, path, lambda: df.selectExpr("v").write.text(path))
    step("sql-read-text", bucket, path, lambda: {"rows": spark.read.text(path).count()})
    path = base + "/partitioned"
    step("sql-write-partitioned", bucket, path, lambda: df.write.partitionBy("k").parquet(path))
    step("sql-read-partitioned", bucket, path, lambda: {"rows": spark.read.parquet(path).where("k = '1'").count()})
    step("sql-insert-into", bucket, path, lambda: df.write.mode("append").partitionBy("k").parquet(path))
    step("sql-read-after-append", bucket, path, lambda: {"rows": spark.read.parquet(path).count()})

    path = base + "/skipping"
    step("sql-write-skipping", bucket, path,
         lambda: spark.range(0, 400, 1, 1).repartitionByRange(4, "id").write.parquet(path))

    # Stork's Python API, from the runtime jar itself (on the Python path through --packages or --py-files).
    from stork import skipping

    def skipping_read():
        query = spark.read.parquet(path).where("id = 123")
        found = [r.id for r in query.collect()]
        report = skipping.reports(query)[0]
        return {"rows": found, "objects_listed": report["objects_listed"], "objects_read": report["objects_read"]}
    step("sql-read-skipping", bucket, path, skipping_read)

    # Layouts from Python (stork.layout): a k-d tree over two columns, one object per bucket, its model saved
    # beside the dataset and read back; a box query reads the objects of the buckets it touches.
    from stork import layout
    laid_path = base + "/laid-out"

    def layout_write():
        rows = spark.range(0, 400, 1, 2).selectExpr("id", "CAST(id % 20 AS DOUBLE) AS x", "CAST(id DIV 20 AS DOUBLE) AS y")
        laid, model = layout.kd_tree(rows, ["x", "y"], 4)
        laid.write.parquet(laid_path)
        layout.save_model(spark, laid_path, model)
        query = spark.read.parquet(laid_path).where("x < 5 AND y < 5")
        found = sorted(r.id for r in query.collect())
        report = skipping.reports(query)[0]
        return {"partitions": laid.rdd.getNumPartitions(), "same_model": bool(layout.load_model(spark, laid_path).equals(model)),
                "rows": found, "objects_listed": report["objects_listed"], "objects_read": report["objects_read"],
                "total": spark.read.parquet(laid_path).count()}
    step("layout-kd-tree", bucket, laid_path, layout_write)

    # A relayout from Python: rows hashed over 4 objects (each spans everything), an append, then one new
    # generation laid out by a k-d tree; the box query reads one object instead of four, the same rows.
    relaid_path = base + "/relayout"

    def relayout_step():
        cols = ["id", "CAST(id % 20 AS DOUBLE) AS x", "CAST(id DIV 20 AS DOUBLE) AS y"]
        spark.range(0, 400, 1, 2).selectExpr(*cols).repartition(4, "id").write.parquet(relaid_path)
        spark.range(400, 440, 1, 1).selectExpr(*cols).write.mode("append").parquet(relaid_path)
        before = spark.read.parquet(relaid_path).where("x < 5 AND y < 5")
        rows_before = sorted(r.id for r in before.collect())
        read_before = skipping.reports(before)[0]["objects_read"]
        done = layout.relayout(spark, relaid_path, ["x", "y"], 4)
        after = spark.read.parquet(relaid_path).where("x < 5 AND y < 5")
        rows_after = sorted(r.id for r in after.collect())
        return {"source_generation": done["source_generation"], "generation": done["generation"],
                "parts_before": done["parts_before"], "parts_after": done["parts_after"],
                "parts_kept": done["parts_kept"], "read_before": read_before,
                "read_after": skipping.reports(after)[0]["objects_read"], "same_rows": rows_before == rows_after,
                "rows": len(rows_after), "total": spark.read.parquet(relaid_path).count(),
                "saved_model": bool(layout.load_model(spark, relaid_path).equals(done["model"]))}
    step("layout-relayout", bucket, relaid_path, relayout_step)

    path = "%s/fmt-json" % base
    step("sql-index-json", bucket, path,
         lambda: {"indexed": skipping.index(spark, path, "json", primitivesAsString=False)["indexed"]})

    text_path = base + "/rdd-text"
    step("rdd-save-as-text-file", bucket, text_path, lambda: sc.parallelize(["hello"], 1).saveAsTextFile(text_path))
    step("rdd-text-file", bucket, text_path, lambda: {"rows": sc.textFile(text_path).collect()})
    step("rdd-whole-text-files", bucket, text_path,
         lambda: {"rows": [v for _, v in sc.wholeTextFiles(text_path).collect()]})
    step("rdd-binary-files", bucket, text_path,
         lambda: {"rows": [bytes(v).decode() for _, v in sc.binaryFiles(text_path).collect()]})

    old_path = base + "/rdd-hadoop-old"
    step("rdd-save-as-hadoop-file", bucket, old_path, lambda: sc.parallelize([("k", "v")], 1).saveAsHadoopFile(
        old_path, "org.apache.hadoop.mapred.TextOutputFormat", "org.apache.hadoop.io.Text", "org.apache.hadoop.io.Text"))
    step("rdd-read-hadoop-old", bucket, old_path, lambda: {"rows": sc.textFile(old_path).collect()})

    new_path = base + "/rdd-hadoop-new"
    step("rdd-save-as-new-api-hadoop-file", bucket, new_path, lambda: sc.parallelize([("k", "v")], 1)
         .saveAsNewAPIHadoopFile(new_path, "org.apache.hadoop.mapreduce.lib.output.TextOutputFormat",
                                 "org.apache.hadoop.io.Text", "org.apache.hadoop.io.Text"))
    step("rdd-read-hadoop-new", bucket, new_path, lambda: {"rows": sc.textFile(new_path).collect()})

# A bucket with the block cache on (spark.hadoop.fs.stork.bucket.<b>.cache.enabled): the second scan of a
# dataset comes from local disk.
cache_bucket = spark.conf.get("spark.stork.test.cache.bucket", "")
if cache_bucket:
    cached = "stork://%s/%s/cached" % (cache_bucket, run_id)
    cfs = jvm.org.apache.hadoop.fs.Path(cached).getFileSystem(hconf)
    step("create-bucket", cache_bucket, cached, lambda: cfs.store().createBucket(cache_bucket))
    step("cache-write", cache_bucket, cached, lambda: spark.range(0, 20000, 1, 4)
         .selectExpr("id", "sha2(CAST(id AS STRING), 256) AS h").write.parquet(cached))

    def cached_scan():
        r = spark.read.parquet(cached).selectExpr("count(*) AS n", "sum(id) AS s", "bit_xor(xxhash64(h)) AS x").collect()[0]
        cfs.store().flush()  # the cache writes blocks on a thread of its own
        return {"rows": [r.n, r.s, r.x], "cache_hits": int(cfs.getIOStatistics().counters().get("stork_cache_hits"))}

    step("cache-first-scan", cache_bucket, cached, cached_scan)
    step("cache-second-scan", cache_bucket, cached, cached_scan)

# A Swift bucket whose streamed files past the first upload buffer go up as static large objects
# (spark.hadoop.fs.stork.bucket.<b>.swift.segment.size): written, read back, deleted with their segments.
segmented_bucket = spark.conf.get("spark.stork.test.segmented.bucket", "")
if segmented_bucket:
    segmented = "stork://%s/%s/segmented" % (segmented_bucket, run_id)
    sfs = jvm.org.apache.hadoop.fs.Path(segmented).getFileSystem(hconf)
    step("create-bucket", segmented_bucket, segmented, lambda: sfs.store().createBucket(segmented_bucket))

    def segments():
        listing = sfs.store().list(jvm.io.stork.store.ListRequest.of(segmented_bucket + "_segments", run_id + "/"))
        n = 0
        while listing.hasNext():
            listing.next()
            n += 1
        return n

    step("segmented-write", segmented_bucket, segmented, lambda: spark.range(0, 60000, 1, 1)
         .selectExpr("sha2(CAST(id AS STRING), 256) AS value").write.text(segmented))

    def segmented_read():
        r = spark.read.text(segmented).selectExpr("count(*) AS n", "bit_xor(xxhash64(value)) AS x").collect()[0]
        return {"rows": [r.n, r.x], "segments": segments()}

    step("segmented-read", segmented_bucket, segmented, segmented_read)
    step("segmented-delete", segmented_bucket, segmented, lambda: {
        "deleted": bool(sfs.delete(jvm.org.apache.hadoop.fs.Path(segmented), True)), "segments": segments()})

# Other schemes keep Hadoop's own committers: the old API's committer class is Stork's for stork:// only.
local = "file://" + tempfile.mkdtemp(prefix="stork-user-path-")
step("rdd-other-scheme-old-api", None, local + "/old", lambda: (
    sc.parallelize(["local"], 1).saveAsTextFile(local + "/old"),
    {"rows": sc.textFile(local + "/old").collect(), "files": sorted(os.listdir(local[7:] + "/old"))})[1])
step("rdd-other-scheme-new-api", None, local + "/new", lambda: (
    sc.parallelize([("k", "local")], 1).saveAsNewAPIHadoopFile(local + "/new",
        "org.apache.hadoop.mapreduce.lib.output.TextOutputFormat", "org.apache.hadoop.io.Text", "org.apache.hadoop.io.Text"),
    {"rows": sc.textFile(local + "/new").collect(), "files": sorted(os.listdir(local[7:] + "/new"))})[1])

s3a_bucket = spark.conf.get("spark.stork.test.s3a.bucket", "")
if s3a_bucket:
    path = "s3a://%s/%s/s3a-one-task" % (s3a_bucket, run_id)
    rdd_path = "s3a://%s/%s/s3a-rdd" % (s3a_bucket, run_id)
    step("s3a-rdd-save-as-text-file", None, rdd_path, lambda: (
        sc.parallelize(["over s3a"], 1).saveAsTextFile(rdd_path), {"rows": sc.textFile(rdd_path).collect()})[1])

    def s3a_write():
        spark.range(1).selectExpr("CAST(id AS STRING) AS value").coalesce(1).write.text(path)
        # S3A's committers write a JSON _SUCCESS naming the committer that ran; the classic one, an empty file.
        success = jvm.org.apache.hadoop.fs.Path(path + "/_SUCCESS")
        sfs = success.getFileSystem(hconf)
        length = sfs.getFileStatus(success).getLen()
        committer = "FileOutputCommitter (empty _SUCCESS)"
        if length > 0:
            stream = sfs.open(success)
            text = jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8")
            stream.close()
            committer = json.loads(text).get("committer", "?")
        return {"protocol": protocol_class(), "committer": committer,
                "rows": [r.value for r in spark.read.text(path).collect()]}

    step("s3a-one-task", None, path, s3a_write)

if spark.conf.get("spark.ui.enabled", "true") == "true" and sc.uiWebUrl:
    # What Spark's UI shows of the configuration: the test looks for secrets in it.
    url = "%s/api/v1/applications/%s/environment" % (sc.uiWebUrl, sc.applicationId)
    environment = json.loads(urllib.request.urlopen(url, timeout=30).read().decode())
    print("UI-ENVIRONMENT " + json.dumps(environment), flush=True)
mark("end")
spark.stop()
print("DONE", flush=True)
