"""A small pyspark application for the real-deployment paths (DeploymentPathsProcessIT): per stork:// bucket,
create it, write a DataFrame, read it back and count the rows. Each step prints "STEP <json>" with the rows and
the REST calls Stork's client counted while it ran (as user_path.py does), and at the end "TOTAL <json>" with the
client's calls for the whole application per bucket (token requests included). Buckets are configured by the
caller (spark.hadoop.*); arguments: <run id> <bucket>... A failure is left to propagate, as in a user's job.
"""
import json
import sys

from pyspark.sql import SparkSession

from steps import Steps

run_id = sys.argv[1]
buckets = sys.argv[2:]
spark = SparkSession.builder.appName("stork-deployment-paths").getOrCreate()
sc = spark.sparkContext
jvm = sc._jvm
hconf = sc._jsc.hadoopConfiguration()
CREATE = spark.conf.get("spark.stork.test.create", "true") == "true"
STEPS = Steps(spark)
fs_of, client_calls, mark = STEPS.fs_of, STEPS.client_calls, STEPS.mark


def step(name, bucket, action):
    STEPS.step(name, bucket, action)


for bucket in buckets:
    path = "stork://%s/%s/rows" % (bucket, run_id)
    if CREATE:
        step("create-bucket", bucket, lambda: fs_of(bucket).store().createBucket(bucket))
    df = spark.range(0, 100, 1, 2).selectExpr("id", "CAST(id % 7 AS STRING) AS k")
    step("write", bucket, lambda: df.write.parquet(path))
    step("read", bucket, lambda: {"rows": spark.read.parquet(path).count(),
                                  "sum": spark.read.parquet(path).selectExpr("sum(id)").first()[0]})

mark("end")
for bucket in buckets:
    print("TOTAL " + json.dumps(dict(bucket=bucket, calls=client_calls(bucket))), flush=True)
spark.stop()
print("DONE", flush=True)
