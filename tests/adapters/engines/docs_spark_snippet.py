import os
import sys

os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # the executors' Python must have zheval installed
from pyspark.sql import SparkSession
from zheval.adapters.spark import score_dataframe

spark = SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false").getOrCreate()
df = spark.createDataFrame(
    [("q1", "今天北京天气很好", ["今天北京天气不错", "北京今天天气很好"], "天气"),
     ("q2", "我想订一张去上海的机票", ["帮我订一张去上海的机票"], "出行"),
     ("q3", "附近有什么好吃的餐厅", ["附近有哪些好吃的饭店"], "餐饮")],
    "id string, prediction string, references array<string>, domain string")
result = score_dataframe(df, id_column="id", group_column="domain", bootstrap=1000, bootstrap_method="poisson")
print(result["bleu"]["bleu"], result["rouge"]["rougeL"], result["rouge"]["rougeL_ci_low"])

result, scored = score_dataframe(df, per_item=True, tokenizer="jieba")
scored.filter("rougeL < 0.6").select("id", "prediction", "rougeL").show()  # the worst items, in Spark
spark.stop()
