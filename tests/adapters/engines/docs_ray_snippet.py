import ray
from zheval.adapters.ray import score_dataset

ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
ds = ray.data.from_items([
    {"id": "q1", "prediction": "今天北京天气很好", "references": ["今天北京天气不错", "北京今天天气很好"], "domain": "天气"},
    {"id": "q2", "prediction": "我想订一张去上海的机票", "references": ["帮我订一张去上海的机票"], "domain": "出行"},
    {"id": "q3", "prediction": "附近有什么好吃的餐厅", "references": ["附近有哪些好吃的饭店"], "domain": "餐饮"},
])
result = score_dataset(ds, id_column="id", group_column="domain", bootstrap=1000, bootstrap_method="poisson")
print(result["bleu"]["bleu"], result["rouge"]["rougeL"], result["rouge"]["rougeL_ci_low"])
print(result["groups"]["出行"]["rouge"]["rougeL"])

result, scored = score_dataset(ds, per_item=True, tokenizer="jieba")
worst = scored.filter(lambda row: row["rougeL"] < 0.6)  # stays in Ray: filter the worst items where they live
print(sorted(row["id"] for row in worst.take_all()))
ray.shutdown()
