# In a hand-written torchrun / accelerate loop: each rank adds its own shard, rank 0 gets the result.
# `metrics_dir` (the folder holding chinese_rouge/ and chinese_bleu/), `run_id`, `shared_dir` and `my_batches`
# (this rank's (predictions, references) batches) are yours.
import os

import evaluate

rank, world = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])  # set by torchrun / accelerate launch
results = {}
for name in ("chinese_rouge", "chinese_bleu"):
    metric = evaluate.load(
        os.path.join(metrics_dir, name),  # an absolute path: relative ones resolve against the CWD
        num_process=world,
        process_id=rank,
        experiment_id=f"{run_id}-{name}",  # the same on every rank, new for every evaluation
        cache_dir=shared_dir,  # a directory that every rank can read and write
    )
    for predictions, references in my_batches:
        metric.add_batch(predictions=predictions, references=references)
    results[name] = metric.compute(tokenizer="jieba")  # the full result on rank 0, None on the other ranks
