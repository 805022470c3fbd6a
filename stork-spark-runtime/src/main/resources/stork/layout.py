"""Laying out a DataFrame by a layout model at write time (docs/layouts.md): one Spark partition per
bucket of a k-d tree or latitude/longitude grid built from a sample, so that a write produces one object
per non-empty bucket. Thin calls into the JVM side (io.stork.spark.layout.LayoutSpec, StorkLayouts).

    from stork import layout
    laid, model = layout.kd_tree(df, ["lat", "lon"], 16)
    laid.write.parquet("stork://b/t")
    layout.save_model(spark, "stork://b/t", model)   # stork://b/t/_stork/layout/model.json
"""

from pyspark.sql import DataFrame


def _jvm(spark):
    return spark.sparkContext._jvm.io.stork.spark.layout


def _lay_out(df, spec, sample_rows, sort_within_buckets, seed):
    if sample_rows is not None:
        spec = spec.sampleRows(int(sample_rows))
    spec = spec.sortWithinBuckets(bool(sort_within_buckets)).seed(int(seed))
    out = spec.layOut(df._jdf)
    return DataFrame(out.rows(), df.sparkSession), out.model()


def kd_tree(df, columns, buckets, sample_rows=None, sort_within_buckets=True, seed=0):
    """``(laid_out_df, model)``: a k-d tree over ``columns`` built from a sample of ``df`` (at most
    ``sample_rows`` rows, 100,000 by default) and ``df`` with one partition per bucket. ``model`` is the
    JVM object; pass it to :func:`save_model` or :func:`lay_out`."""
    spec = _jvm(df.sparkSession).LayoutSpec.kdTree(list(columns), int(buckets))
    return _lay_out(df, spec, sample_rows, sort_within_buckets, seed)


def grid(df, lat, lon, precision, buckets, sample_rows=None, sort_within_buckets=True, seed=0):
    """``(laid_out_df, model)``: a grid of 10^-precision degree cells along a Hilbert curve, balanced by a
    sample of ``df``."""
    spec = _jvm(df.sparkSession).LayoutSpec.grid(lat, lon, int(precision), int(buckets))
    return _lay_out(df, spec, sample_rows, sort_within_buckets, seed)


def lay_out(df, model, sort_within_buckets=True):
    """``df`` laid out by an existing model (e.g. :func:`load_model`): a later batch into the same buckets."""
    jdf = _jvm(df.sparkSession).StorkLayouts.layOut(df._jdf, model, bool(sort_within_buckets))
    return DataFrame(jdf, df.sparkSession)


def save_model(spark, path, model):
    """Saves ``model`` as ``<path>/_stork/layout/model.json`` (one PUT); returns where."""
    return _jvm(spark).StorkLayouts.save(spark._jsparkSession, path, model).toString()


def load_model(spark, path):
    """The model saved beside the dataset at ``path`` (raises if it has none)."""
    return _jvm(spark).StorkLayouts.load(spark._jsparkSession, path)


def history_size(spark, path):
    """How many past queries the history kept beside the dataset at ``path`` holds (captured from queries
    while ``spark.stork.layout.history.enabled`` is true, the default; docs/layouts.md "Query history")."""
    return _jvm(spark).StorkLayouts.history(spark._jsparkSession, path).size()


def relayout(spark, path, columns=None, buckets=16, grid=None, precision=1, target_object_bytes=None,
             use_stored_history=True, format=None, sample_rows=None, seed=0, **read_options):
    """Rewrites the dataset's current generation into a new layout as one new generation (appends committed
    meanwhile are kept; the old parts stay for the retention period). A k-d tree over ``columns``, or with
    ``grid=(lat, lon)`` a grid of 10^-precision degree cells; ``buckets`` objects, or as many as make objects
    of about ``target_object_bytes``. The dataset's stored query history steers the k-d tree unless
    ``use_stored_history`` is false. Returns what it did as a dict."""
    jvm = _jvm(spark)
    if grid is not None:
        spec = jvm.LayoutSpec.grid(grid[0], grid[1], int(precision), int(buckets))
    elif columns:
        spec = jvm.LayoutSpec.kdTree(list(columns), int(buckets))
    else:
        raise ValueError("relayout needs columns (a k-d tree) or grid=(lat, lon)")
    if sample_rows is not None:
        spec = spec.sampleRows(int(sample_rows))
    spec = spec.seed(int(seed))
    job = jvm.Relayout.of(spark._jsparkSession, path, spec).useStoredHistory(bool(use_stored_history))
    if format is not None:
        job = job.format(format)
    if target_object_bytes is not None:
        job = job.targetObjectBytes(int(target_object_bytes))
    for key, value in read_options.items():
        job = job.option(key, str(value))
    r = job.run()
    return {"source_generation": r.sourceGeneration(), "generation": r.generation(),
            "parts_before": r.partsBefore(), "bytes_before": r.bytesBefore(), "parts_after": r.partsAfter(),
            "bytes_after": r.bytesAfter(), "parts_kept": r.partsKept(), "history_queries": r.historyQueries(),
            "model": r.model()}
