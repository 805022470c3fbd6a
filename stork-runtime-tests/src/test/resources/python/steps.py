"""What the process tests' Python applications share: counting Stork's calls per step, and marking each step
in the store's access log so the Java side can split the store's count by step and compare the two."""

import json
import urllib.request


class Steps:
    """Steps of one application: `step(name, bucket, action)` runs `action` between two marks and prints
    `STEP {json}` with the client's calls by type during it and whatever facts the action returned."""

    def __init__(self, spark):
        self.spark = spark
        self.jvm = spark.sparkContext._jvm
        self.hconf = spark.sparkContext._jsc.hadoopConfiguration()
        self.store = spark.conf.get("spark.stork.test.store.endpoint", "")

    def fs_of(self, bucket):
        return self.jvm.org.apache.hadoop.fs.Path("stork://%s/" % bucket).getFileSystem(self.hconf)

    def client_calls(self, bucket):
        """The REST calls by type that Stork's client of this bucket has made so far (its own accounting)."""
        snapshot = self.fs_of(bucket).store().statistics().snapshot()
        return {str(k): int(v) for k, v in dict(snapshot.calls()).items()}

    def mark(self, name):
        """A HEAD to no bucket on the store's plain endpoint: the access log shows it between steps."""
        if self.store:
            try:
                urllib.request.urlopen(urllib.request.Request(self.store + "/stork-step-" + name, method="HEAD"),
                                       timeout=10)
            except Exception:
                pass  # 4xx: the line is logged all the same

    def step(self, name, bucket, action, path=None):
        self.mark(name + "@" + bucket if bucket else name)
        before = self.client_calls(bucket) if bucket else {}
        facts = action() or {}
        after = self.client_calls(bucket) if bucket else {}
        calls = {k: after[k] - before.get(k, 0) for k in after if after[k] - before.get(k, 0)}
        record = dict(name=name, bucket=bucket, calls=calls, **facts)
        if path is not None:
            record["path"] = path
        print("STEP " + json.dumps(record), flush=True)
