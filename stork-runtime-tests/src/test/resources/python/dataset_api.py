"""Stork's Python Dataset API and SQL from a pyspark application with the runtime jar alone (spark-submit
--jars/--py-files): a dataset of three generations (create 2 parts, append 1, overwrite 1), then each call
of stork.Dataset, the time travel clause and what skipping did for the query just run. Each result is
printed as one line, "RESULT <name> <json>", for the test to compare with the store. Arguments: <dataset>.
"""
import json
import sys

from pyspark.sql import SparkSession

from stork import Dataset, skipping

path = sys.argv[1]
spark = SparkSession.builder.appName("stork-dataset-api").getOrCreate()


def result(name, value):
    print("RESULT %s %s" % (name, json.dumps(value, default=str)), flush=True)


spark.range(0, 10).selectExpr("id", "id % 3 AS k").repartition(2).write.parquet(path)
spark.range(10, 15).selectExpr("id", "id % 3 AS k").coalesce(1).write.mode("append").parquet(path)
spark.range(100, 103).selectExpr("id", "id % 3 AS k").coalesce(1).write.mode("overwrite").parquet(path)

events = Dataset.for_path(spark, path)
result("history", [[r.generation, r.operation, r.parts, r.bytes, r.parts_added, r.parts_removed]
                   for r in events.history().collect()])
d = events.detail().collect()[0]
result("detail", {"format": d.format, "generation": d.generation, "parts": d.parts, "bytes": d.bytes,
                  "schema": d.schema})
result("files", [[r.path, r.size, r.etag, r.records, r.statistics["id"].min if r.statistics else None]
                 for r in events.files().collect()])
result("files1", sorted(r.path for r in events.files(1).collect()))
result("changes", [[r.generation, r.change, r.path] for r in events.changes(1).collect()])
result("version1", spark.sql("SELECT count(*) AS n FROM parquet.`%s` VERSION AS OF 1" % path).collect()[0].n)

q = spark.read.parquet(path).where("id = 101")
result("count", q.count())
result("reports", skipping.reports(q))
result("last_report", skipping.last_report(spark))

r = events.restore(1).collect()[0]
result("restore", [r.restored_generation, r.generation, r.parts])
result("after_restore", spark.read.parquet(path).count())
result("vacuum_dry_run", sorted([r.path, r.kind, r.deleted] for r in events.vacuum(0, dry_run=True).collect()))
try:
    events.restore(99)
    result("restore99", "no error")
except Exception as e:  # py4j's error: its first line is the JVM's one-line message
    result("restore99", str(e).splitlines()[0])
print("DONE", flush=True)
spark.stop()
