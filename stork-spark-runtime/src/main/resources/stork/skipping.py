"""Data skipping from Python (docs/data-skipping.md): statistics for data Stork did not write, and what
skipping did for a query. Thin calls into the JVM side (io.stork.spark.skipping.DataSkipping)."""


def _data_skipping(spark):
    return spark.sparkContext._jvm.io.stork.spark.skipping.DataSkipping


def _option(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def index(spark, path, format, **options):
    """Computes statistics for the objects under ``path`` (any Hadoop path), read as ``format`` with the
    reader ``options`` it is queried with, and records them beside them (one Spark job; later queries skip
    by them while an object's length and ETag are unchanged).

    Returns a dict: ``location`` (where the index went), ``objects`` (objects found), ``indexed`` (objects
    with statistics) and ``index_bytes``.
    """
    result = _data_skipping(spark).index(spark._jsparkSession, path, format,
                                         {str(k): _option(v) for k, v in options.items()})
    return {"location": result.location(), "objects": result.objects(), "indexed": result.indexed(),
            "index_bytes": result.indexBytes()}


def _report(r):
    return {"objects_listed": r.objectsListed(), "objects_read": r.objectsRead(),
            "objects_skipped": r.objectsSkipped(), "bytes_listed": r.bytesListed(),
            "bytes_read": r.bytesRead(), "with_statistics": r.withStatistics(),
            "planning_ms": r.planningNanos() / 1e6, "filter": r.filter()}


def reports(df):
    """What skipping did for each file scan of ``df``, in plan order: for each scan, the newest listing of
    its data, whichever action on ``df`` ran it (``df.count()`` and ``df.collect()`` plan queries of their
    own). A list of dicts with ``objects_listed``, ``objects_read``, ``objects_skipped``, ``bytes_listed``,
    ``bytes_read``, ``with_statistics``, ``planning_ms`` and ``filter`` (the filter as skipping read it)."""
    return [_report(r) for r in _data_skipping(df.sparkSession).reports(df._jdf)]


def last_report(spark):
    """What skipping did for the last query the session ran that skipping judged (``spark.sql(...).show()``,
    ``df.count()``...): one dict per scan it listed, as :func:`reports`; ``[]`` before any."""
    return [_report(r) for r in _data_skipping(spark).lastQuery(spark._jsparkSession)]
