"""What is outside the exam, in words: other vendors' platforms, third-party ML tools, ML theory,
and Google Cloud areas the Professional ML Engineer exam does not cover; and the ML and Google
Cloud words that keep a question in scope whatever else it names.

Pure word lists and the three tests on them (`other_platform`, `other_area`, `domain_words`);
the matcher decides what to do with the answer.
"""

from __future__ import annotations

import re
from itertools import pairwise

from bot.textnorm import raw_words

# Another vendor's ML platform, named without any Google Cloud word: the question is about that
# platform, which the tutor does not cover, however much ML vocabulary it shares.
OTHER_PLATFORMS = {
    "aws": "AWS",
    "amazon": "AWS",
    "sagemaker": "Amazon SageMaker",
    "bedrock": "Amazon Bedrock",
    "ec2": "AWS",
    "azure": "Microsoft Azure",
    "databricks": "Databricks",
    "watsonx": "IBM watsonx",
    "snowflake": "Snowflake",
    "rekognition": "AWS",
    "trainium": "AWS",
    "inferentia": "AWS",
    "s3": "AWS",
    "redshift": "AWS",
    "ovhcloud": "OVHcloud",
    "ovh": "OVHcloud",
    "oci": "Oracle Cloud",
    "alibaba": "Alibaba Cloud",
    "coreweave": "CoreWeave",
    "runpod": "RunPod",
    "paperspace": "Paperspace",
    "openai": "OpenAI",
    "huawei": "Huawei Cloud",
}
# Machine-learning tools, libraries and platforms that are not Google Cloud's, named without any
# Google Cloud word: a question about configuring one of them ("torchtune recipe: is batch_size
# per GPU or global?", "resume training from a checkpoint on Huawei ModelArts") shares the ML
# vocabulary of an entry, but the entry cannot answer it. Tools that Google Cloud runs or
# documents as part of its ML products (Airflow, Spark, Beam, Ray, Kubeflow, Hugging Face, vLLM,
# Triton, TorchServe, KServe, LangChain, LlamaIndex, Labelbox, FAISS) are not listed: questions
# about those may be in scope. Keys of two words match two adjacent words.
OTHER_TOOLS = {
    # experiment tracking, orchestration and MLOps platforms
    "mlflow": "MLflow",
    "wandb": "Weights & Biases",
    "clearml": "ClearML",
    "zenml": "ZenML",
    "metaflow": "Metaflow",
    "flyte": "Flyte",
    "dagster": "Dagster",
    "prefect": "Prefect",
    "kedro": "Kedro",
    "dvc": "DVC",
    "lakefs": "lakeFS",
    "mlrun": "MLRun",
    "polyaxon": "Polyaxon",
    "valohai": "Valohai",
    "cometml": "Comet",
    "comet ml": "Comet",
    "neptune ai": "neptune.ai",
    "determined ai": "Determined AI",
    "anyscale": "Anyscale",
    "mosaicml": "MosaicML",
    # serving and LLM gateways
    "bentoml": "BentoML",
    "seldon": "Seldon",
    "ollama": "Ollama",
    "litellm": "LiteLLM",
    "openrouter": "OpenRouter",
    "langsmith": "LangSmith",
    "langfuse": "Langfuse",
    "crewai": "CrewAI",
    # fine-tuning and training frameworks
    "torchtune": "torchtune",
    "axolotl": "Axolotl",
    "unsloth": "Unsloth",
    "colossalai": "Colossal-AI",
    "colossal ai": "Colossal-AI",
    # AutoML, tuning and forecasting libraries
    "autogluon": "AutoGluon",
    "pycaret": "PyCaret",
    "statsforecast": "StatsForecast",
    "nixtla": "Nixtla",
    "optuna": "Optuna",
    "hyperopt": "Hyperopt",
    # data and model quality
    "deepchecks": "Deepchecks",
    "whylabs": "WhyLabs",
    "evidently ai": "Evidently",
    "great expectations": "Great Expectations",
    # other ML platforms
    "modelarts": "Huawei ModelArts",
    "baidu": "Baidu",
    "paddlepaddle": "PaddlePaddle",
    "mindspore": "MindSpore",
    "h2o": "H2O.ai",
    "h2ogpte": "H2O.ai",
    "datarobot": "DataRobot",
    "dataiku": "Dataiku",
    "knime": "KNIME",
    "rapidminer": "RapidMiner",
    "roboflow": "Roboflow",
    "ultralytics": "Ultralytics",
    "label studio": "Label Studio",
    # feature stores, model monitoring and data labelling outside Google Cloud
    "feast": "Feast",
    "tecton": "Tecton",
    "hopsworks": "Hopsworks",
    "arize": "Arize",
    "fiddler": "Fiddler",
    "labelbox": "Labelbox",
    "snorkel": "Snorkel",
    "cleanlab": "Cleanlab",
    # open-source vision toolkits
    "openmmlab": "OpenMMLab",
    "mmdetection": "OpenMMLab",
    "mmpretrain": "OpenMMLab",
    "mmsegmentation": "OpenMMLab",
    "detectron2": "Detectron2",
    # vector databases
    "pinecone": "Pinecone",
    "weaviate": "Weaviate",
    "milvus": "Milvus",
    "qdrant": "Qdrant",
    "chromadb": "Chroma",
    # workflow, data and BI tools outside Google Cloud
    "kestra": "Kestra",
    "pipedream": "Pipedream",
    "zapier": "Zapier",
    "n8n": "n8n",
    "apify": "Apify",
    "airbyte": "Airbyte",
    "fivetran": "Fivetran",
    "duckdb": "DuckDB",
    "teradata": "Teradata",
    "clickhouse": "ClickHouse",
    "tableau": "Tableau",
    "power bi": "Power BI",
    # GPU and model-hosting clouds
    "baseten": "Baseten",
    "lambda labs": "Lambda",
    "vast ai": "Vast.ai",
    "together ai": "Together AI",
    "fireworks ai": "Fireworks AI",
    "groq": "Groq",
    # Hugging Face's own hosting ("Hugging Face Inference Endpoints", its Inference API); models
    # from Hugging Face deployed on Vertex AI or GKE name a Google word and stay in scope
    "face inference": "Hugging Face's inference hosting",
}
# ... unless the question looks for Google Cloud's counterpart of the tool: "is there something
# like MLflow to compare training runs?", "we outgrew our in-memory index, need managed search".
_COUNTERPART = re.compile(
    r"\b(?:like|similar to|equivalent|counterpart|alternative|alternatives|instead of|replace"
    r"|replacing|replacement|migrate|migrating|migration|move off|moving off|move away"
    r"|moving away|switch from|switching from|outgrew|outgrown|managed)\b"
)
# Proofs, derivations and history of ML: theory the exam does not ask, whatever its ML words.
THEORY_WORDS = frozenset({"derive", "derivation", "theorem", "invented", "inventor"})
# A proof is theory when it proves something ("prove that", "proof of convergence"); "a proof of
# concept" and "does that prove the model is unfair?" are a project and a question about evidence.
_PROOF = re.compile(r"\b(?:prove|proving|proof)\s+(?:that|why|how|of\b(?!\s+concept))")
# "the history of neural networks" is theory; "purchase history" is a recommender's data.
_HISTORY_OF = re.compile(r"\bhistory of\b")
# Google Cloud areas the Professional ML Engineer exam does not cover. A question that names one
# and no ML word at all ("firewall rule so ssh is only allowed from our office") is about that
# area, however close some entry's wording comes; it is declined by name, like another vendor's.
OTHER_AREAS = {
    **dict.fromkeys(
        ["firewall", "vpn", "dns", "nat", "cdn", "subnet", "peering", "ssh"],
        "Google Cloud networking",
    ),
    **dict.fromkeys(
        ["sql", "mysql", "postgres", "postgresql", "spanner", "firestore", "memorystore", "redis"],
        "Google Cloud databases",
    ),
    **dict.fromkeys(["billing", "invoice", "budget", "budgets"], "Google Cloud billing"),
    **dict.fromkeys(["workspace", "gmail"], "Google Workspace administration"),
    **dict.fromkeys(["autopilot", "kubectl", "pod", "pods"], "GKE operations"),
    **dict.fromkeys(["dead", "letter", "subscriber"], "Pub/Sub operations"),
    **dict.fromkeys(["partitioned", "clustered", "slots"], "BigQuery administration"),
    **dict.fromkeys(
        ["contractor", "permission", "permissions", "iam", "role", "roles"], "access management"
    ),
    **dict.fromkeys(
        ["ingress", "tls", "certificate", "certificates", "https", "balancer", "balancing"],
        "Google Cloud networking",
    ),
    **dict.fromkeys(["quota", "quotas"], "Google Cloud quotas"),
    "firebase": "Firebase",
    **dict.fromkeys(["lifecycle", "retention"], "Cloud Storage administration"),
    **dict.fromkeys(["backup", "backups", "restore"], "backup and recovery"),
    **dict.fromkeys(
        ["voucher", "retake", "proctor", "proctored", "recertify", "recertification", "fee"],
        "exam logistics",
    ),
}
# Words that make a question an ML question whatever else it names.
_ML_VOCABULARY = """
    model models modelling modeling train training trained trains retrain retraining predict
    prediction predictions inference infer serve serving served endpoint endpoints feature
    features embedding embeddings label labels labelled labeled labeling labelling dataset
    datasets ml ai llm llms gemini genai generative gpu gpus tpu tpus accelerator accelerators
    cuda accuracy precision recall auc loss overfit overfitting underfit drift skew pipeline
    pipelines notebook notebooks jupyter colab tuning tune tuned hyperparameter hyperparameters
    epoch epochs batch neural deep learning classifier classification
    regression forecast forecasting clustering recommendation recommender vertex automl bqml
    tensorflow pytorch keras xgboost sklearn scikit tfx kubeflow mlops experiment experiments
    metrics explain explainability explanation explanations shap attributions fairness bias
    vision translation speech ocr nlp sentiment document rag prompt prompts finetune
    finetuning lora weights checkpoint checkpoints distributed horovod vizier dataflow
    dataproc spark beam tfrecord transformer transformers bert image images text workbench
    tensorboard bigframes dataframes pandas vector vectors recommendations recommend
    recommends recommending recommenders classifiers forecasts predicting predicts"""
ML_WORDS = frozenset(_ML_VOCABULARY.split())
GOOGLE_WORDS = frozenset(
    {"google", "gcp", "gcs", "vertex", "bigquery", "gke", "gemini", "tpu", "tpus", "dataproc"}
    | {"dataflow", "colab", "kubeflow", "vizier", "automl", "bqml", "gemma", "imagen"}
)
# Google Cloud products named in two everyday words ("BentoML or Cloud Run for serving?").
GOOGLE_PRODUCTS = frozenset(
    {"cloud run", "cloud storage", "cloud build", "cloud functions", "cloud composer"}
    | {"model garden", "document ai", "cloud tpu", "compute engine", "app engine"}
)
DOMAIN_WORDS = ML_WORDS | GOOGLE_WORDS


def domain_words(question: str) -> int:
    """How many distinct ML or Google Cloud words a question spells out: the surest sign that it
    is in scope, since out-of-scope lines that collide with an entry mostly share plain words."""
    return len(DOMAIN_WORDS.intersection(raw_words(question[:2000])))


def other_platform(question: str, beside: str = "") -> str | None:
    """The other vendor's platform or the third-party ML tool a question is about, unless it
    also names Google Cloud (or, for a tool, looks for Google Cloud's counterpart).

    `beside` is text that comes with the question without being it, such as the choices of a
    pasted practice question: Google Cloud named there makes a question about a tool one of
    moving to Google Cloud ("We track runs in MLflow …  A. Vertex AI Experiments …"), but a
    question about another vendor ("Which AWS service …") stays about that vendor.
    """
    said = raw_words(question[:2000])
    if _names_google(said):
        return None
    platform = next((OTHER_PLATFORMS[w] for w in said if w in OTHER_PLATFORMS), None)
    if platform is not None:
        return platform
    tool = next((OTHER_TOOLS[w] for w in _names(said) if w in OTHER_TOOLS), None)
    if tool is None or _COUNTERPART.search(" ".join(said)):
        return None
    return None if _names_google(raw_words(beside[:2000])) else tool


def _names(said: list[str]) -> list[str]:
    """The words of a text and its two-word names."""
    return [*said, *(" ".join(pair) for pair in pairwise(said))]


def _names_google(said: list[str]) -> bool:
    """Whether the words name Google Cloud: a Google word or a two-word product name."""
    return bool(GOOGLE_WORDS.intersection(said) or GOOGLE_PRODUCTS.intersection(_names(said)))


def other_area(question: str) -> str | None:
    """What a question is about when that is outside the exam: ML theory (proofs, history), or a
    non-ML Google Cloud area it names without any ML word."""
    said = raw_words(question[:2000])
    text = question[:2000].lower()
    if THEORY_WORDS.intersection(said) or _HISTORY_OF.search(text) or _PROOF.search(text):
        return "ML theory beyond the exam"
    if ML_WORDS.intersection(said):
        return None
    return next((OTHER_AREAS[w] for w in said if w in OTHER_AREAS), None)
