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
