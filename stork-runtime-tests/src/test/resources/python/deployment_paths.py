"""A small pyspark application for the real-deployment paths (DeploymentPathsProcessIT): per stork:// bucket,
create it, write a DataFrame, read it back and count the rows. Each step prints "STEP <json>" with the rows and
the REST calls Stork's client counted while it ran (as user_path.py does), and at the end "TOTAL <json>" with the
client's calls for the whole application per bucket (token requests included). Buckets are configured by the
caller (spark.hadoop.*); arguments: <run id> <bucket>... A failure is left to propagate, as in a user's job.
"""
import json
import sys
import urllib.request

from pyspark.sql import SparkSession

run_id = sys.argv[1]
buckets = sys.argv[2:]
spark = SparkSession.builder.appName("stork-deployment-paths").getOrCreate()
sc = spark.sparkContext
jvm = sc._jvm
hconf = sc._jsc.hadoopConfiguration()
STORE = spark.conf.get("spark.stork.test.store.endpoint", "")
CREATE = spark.conf.get("spark.stork.test.create", "true") == "true"


def fs_of(bucket):
    return jvm.org.apache.hadoop.fs.Path("stork://%s/" % bucket).getFileSystem(hconf)


def client_calls(bucket):
    return {str(k): int(v) for k, v in dict(fs_of(bucket).store().statistics().snapshot().calls()).items()}


def mark(name):
    """A HEAD to no bucket on the store's plain endpoint: the test splits the store's access log by these."""
    if STORE:
        try:
            urllib.request.urlopen(urllib.request.Request(STORE + "/stork-step-" + name, method="HEAD"), timeout=10)
        except Exception:
            pass  # 4xx: the line is logged all the same


def step(name, bucket, action):
    mark(name + "@" + bucket)
    before = client_calls(bucket)
    facts = action() or {}
    after = client_calls(bucket)
    calls = {k: after[k] - before.get(k, 0) for k in after if after[k] - before.get(k, 0)}
    print("STEP " + json.dumps(dict(name=name, bucket=bucket, calls=calls, **facts)), flush=True)


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
