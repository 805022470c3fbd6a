"""Stork for PySpark: the Python side of the runtime jar (io.stork:stork-spark-runtime).

The package travels inside the jar. It is importable once the session has started with the jar on the
Python path: ``--packages io.stork:stork-spark-runtime:<version>`` puts it there, as does
``--py-files <the runtime jar>`` (or ``spark.submit.pyFiles``) next to ``--jars``.

    from stork import skipping
    skipping.index(spark, "stork://b/uploads", "csv", header=True)
    skipping.reports(spark.read.parquet("stork://b/events").where("id = 42"))

    from stork import layout
    laid, model = layout.kd_tree(df, ["lat", "lon"], 16)

    from stork import Dataset
    Dataset.for_path(spark, "stork://b/events").history().show()
"""

from stork.dataset import Dataset

__all__ = ["Dataset", "dataset", "layout", "skipping"]
