"""The engines every engine test module may ask for: a ``local[2]`` SparkSession (``spark``) and a local Ray
(``local_ray``), one per module (`helpers.engines`); a module that needs another set-up defines its own."""

import pytest

from helpers.engines import local_ray_instance, local_spark_session


@pytest.fixture(scope="module")
def spark():
    yield from local_spark_session()


@pytest.fixture(scope="module")
def local_ray():
    yield from local_ray_instance()
