"""A Stork dataset's history, details, parts and maintenance as pyspark DataFrames (docs/pyspark.md#datasets,
docs/sql.md): thin calls into the JVM side (io.stork.spark.dataset.StorkDataset), so Python, Java and SQL
answer alike.

    from stork import Dataset
    events = Dataset.for_path(spark, "stork://b/events")   # or Dataset.for_name(spark, "db.events")
    events.history().show()
    events.files().where("size > 1000000").show()
    events.changes(3).show()                               # parts added/removed after generation 3
    events.restore(3)
    events.vacuum(retain_hours=168, dry_run=True).show()
"""

from py4j.protocol import Py4JJavaError
from pyspark.sql import DataFrame


def _jvm(spark):
    return spark.sparkContext._jvm.io.stork.spark.dataset.StorkDataset


def _call(work):
    """Runs a JVM call; its failure as the JVM's one-line message: ValueError for bad input (an unknown
    generation, a path not on Stork), RuntimeError for the store's."""
    try:
        return work()
    except Py4JJavaError as e:
        error = e.java_exception
        message = error.getMessage() or error.toString()
        if error.getClass().getName() == "java.lang.IllegalArgumentException":
            raise ValueError(message) from None
        raise RuntimeError(message) from None


class Dataset:
    """A Stork dataset: every call reads its manifest afresh (one GET) and returns a DataFrame."""

    def __init__(self, spark, jdataset):
        self._spark = spark
        self._j = jdataset

    @classmethod
    def for_path(cls, spark, path, format=None):
        """The dataset at ``path`` (``stork://bucket/dataset``); ``format``, the data source it is read as
        (``parquet``...), is told by the parts' names when not given."""
        return cls(spark, _call(lambda: _jvm(spark).forPath(spark._jsparkSession, path, format)))

    @classmethod
    def for_name(cls, spark, name):
        """The dataset behind a session catalog table whose location is on Stork, or at a stork:// path."""
        return cls(spark, _call(lambda: _jvm(spark).forName(spark._jsparkSession, name)))

    @property
    def path(self):
        return self._j.path()

    def _df(self, call):
        return DataFrame(_call(call), self._spark)

    def history(self):
        """The generations the manifest keeps, newest first: generation, time, operation, job, parts, bytes,
        records, parts_added, parts_removed, bytes_added, bytes_removed, writer."""
        return self._df(lambda: self._j.history())

    def detail(self):
        """One row: format, location, generation, time, operation, parts, bytes, records, schema,
        partition_columns, properties, layout, parts_with_statistics, restorable_from, writer."""
        return self._df(lambda: self._j.detail())

    def files(self, generation=None):
        """The parts of the current generation (or of ``generation``): path, size, etag, records, added_in,
        modified, job, statistics (by column: type, min, max, nulls, nans)."""
        if generation is None:
            return self._df(lambda: self._j.files())
        return self._df(lambda: self._j.files(int(generation)))

    def changes(self, from_generation, to_generation=None):
        """The parts added and removed after ``from_generation`` up to ``to_generation`` (default: the
        current one), in commit order: generation, change ('added'/'removed'), path, size, etag, records."""
        return self._df(lambda: self._j.changes(int(from_generation), int(to_generation or 0)))

    def vacuum(self, retain_hours=None, dry_run=False):
        """The dataset tool's vacuum, with its safety (never under the maintenance floor): parts dropped longer
        than ``retain_hours`` ago (default: the dataset's retention), stray attempt parts and stale
        bookkeeping. Rows: path, size, kind, deleted (False in a dry run: what would be deleted)."""
        hours = None if retain_hours is None else float(retain_hours)
        return self._df(lambda: self._j.vacuum(hours, bool(dry_run)))

    def restore(self, generation=None, timestamp=None):
        """A new generation naming ``generation``'s parts (or those current at ``timestamp``, a UTC time such
        as '2026-11-23 10:00:00'); nothing is copied. One row: restored_generation, generation, parts, bytes,
        parts_added, parts_removed."""
        if (generation is None) == (timestamp is None):
            raise ValueError("restore takes a generation or a timestamp, one of the two")
        if generation is not None:
            return self._df(lambda: self._j.restore(int(generation)))
        return self._df(lambda: self._j.restoreToTimestamp(str(timestamp)))

    def __repr__(self):
        return "Dataset(%s)" % self.path
