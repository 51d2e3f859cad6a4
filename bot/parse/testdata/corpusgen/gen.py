#!/usr/bin/env python3
"""Writes the generated slices of the router corpus, one file per writer.

Each writer is a style of asking, with its own sentence frames and word
choices; a frame fixes the intent and the slots, so every label comes from
how the sentence was built, not from the parser. Values are drawn with a
seeded random generator, so the files are reproducible:

    python3 bot/parse/testdata/corpusgen/gen.py

Writers and splits (split by writer, so the test split shares no frame
with training):
    w3-student   train  chatty Chinese, particles, typos, emoji codes
    w4-startup   train  terse English, Slack markup, abbreviations
    w5-buyer     train  formal Chinese procurement language
    w6-mixed     dev    Chinese-English code-switching, full-width forms
    w8-ops       test   an ops lead in both languages; written before any
                        tuning and never edited to pass
"""
import json
import os
import random
import re

HERE = os.path.dirname(os.path.abspath(__file__))
PARSE = os.path.dirname(os.path.dirname(HERE))

CARDS = {
    "rtx4090": ["4090", "RTX 4090", "rtx4090"],
    "h100-sxm": ["H100", "h100"],
    "a100-80g": ["A100", "a100", "A100 80G"],
    "h800": ["H800", "h800"],
    "h20": ["H20", "h20"],
    "l40s": ["L40S", "l40s"],
    "rtx3090": ["3090", "RTX 3090"],
    "a800": ["A800", "a800"],
    "h200": ["H200", "h200"],
    "ascend-910b": ["910B", "昇腾910B"],
}
PLATFORMS = {
    "autodl": ["AutoDL", "autodl"],
    "hengyuanyun": ["恒源云"],
    "vastai": ["vast", "Vast.ai"],
    "runpod": ["runpod", "RunPod"],
    "lambda": ["lambda", "Lambda"],
    "aliyun": ["阿里云"],
    "openbayes": ["OpenBayes"],
}
SIZES = [1.5, 3, 7, 8, 13, 14, 32, 34, 70, 72]

NEUTRAL = set("""gpu gpus cpu vram ram gb g k m b t h hr hrs hour hours s
lora qlora sft full freeze inference fp bf int bit bits awq gptq nf vllm tgi sglang
token tokens epoch epochs sample samples step steps mfu tps pue fx ops usd cny rmb kwh
nvlink pcie sxm rtx geforce nvidia tesla ascend cuda oom sla llm llama qwen mistral deepseek
glm chatglm baichuan yi sd sdxl flux stable diffusion comfyui ai x vs
fit cost monthly buy price prices compare recommend spend report list add undo delete help
autodl runpod lambda vast aws gcp azure aliyun openbayes gpushare ec2 cloud
project proj bs seq ctx conc rank gc optim util rate watts power budget rent years month id""".split())
PARTICLES = ["吗", "呢", "吧", "么", "啥", "多少", "怎", "什么", "哪", "几"]


def lang_of(text):
    """The parser's language rule (normalize.go langOf), restated."""
    t = text.lower()
    han = len(re.findall(r"[\u4e00-\u9fff]", t))
    en = 0
    for m in re.finditer(r"[a-z]+", t):
        i, j = m.span()
        glued = (i > 0 and t[i - 1].isdigit()) or (j < len(t) and t[j].isdigit())
        if not glued and j - i >= 2 and m.group() not in NEUTRAL:
            en += 1
    if han == 0:
        return "en"
    if han >= 2 * en:
        return "zh"
    return "zh" if any(p in t for p in PARTICLES) else "en"


def kind_of(text):
    han = len(re.findall(r"[\u4e00-\u9fff]", text))
    latin = len(re.findall(r"[A-Za-z]{2,}", text))
    if han == 0:
        return "en"
    return "zh" if latin <= 1 or han >= 4 * latin else "mixed"


class Writer:
    def __init__(self, name, split, seed):
        self.name, self.split = name, split
        self.r = random.Random(seed)
        self.rows = []

    def card(self, exclude=()):
        cid = self.r.choice([c for c in CARDS if c not in exclude])
        return cid, self.r.choice(CARDS[cid])

    def plat(self, exclude=()):
        pid = self.r.choice([p for p in PLATFORMS if p not in exclude])
        return pid, self.r.choice(PLATFORMS[pid])

    def size(self):
        v = self.r.choice(SIZES)
        return v, ("%g" % v) + self.r.choice(["b", "B", "b", " B"]).replace(" B", "B")

    def pick(self, xs):
        return self.r.choice(xs)

    def add(self, text, intent, slots):
        self.rows.append({"split": self.split, "kind": kind_of(text), "writer": self.name,
                          "text": text, "intent": intent, "lang": lang_of(text), "slots": slots})

    def write(self, path):
        seen = set()
        with open(path, "w", encoding="utf-8") as f:
            for r in self.rows:
                if r["text"] in seen:
                    continue
                seen.add(r["text"])
                f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
        return len(seen)


def hpm_day(h):
    return round(h * 365 / 12, 4)


# --- w8-ops: the test writer -------------------------------------------------

def w8(w, n):
    for _ in range(n):
        cid, c = w.card()
        pid, p = w.plat()
        v, s = w.size()
        k = w.r.randrange(22)
        if k == 0:
            w.add(f"{p} 的 {c} 现在租一小时多少钱？", "price", {"gpus": [cid], "platform": pid})
        elif k == 1:
            w.add(f"what does {p} charge for a {c} per hour these days", "price", {"gpus": [cid], "platform": pid})
        elif k == 2:
            m = w.pick(["lora", "qlora"])
            w.add(f"跑 {s} 的 {m} 微调大概要多大显存", "fit", {"params_b": v, "method": m})
        elif k == 3:
            w.add(f"is one {c} enough to serve a {s} model?", "fit", {"params_b": v, "method": "inference", "gpus": [cid], "cards": 1})
        elif k == 4:
            n_s = w.pick([10, 20, 50])
            e = w.pick([1, 2, 3])
            w.add(f"{s} lora，{n_s}万条样本，{e} 轮，用 {c} 训下来要花多少钱", "cost",
                  {"params_b": v, "method": "lora", "samples": n_s * 10000, "epochs": e, "gpus": [cid]})
        elif k == 5:
            t = w.pick([1, 5, 20])
            w.add(f"ballpark the cost to pretrain a {s} on {t}B tokens with {c}s", "cost",
                  {"params_b": v, "method": "full", "tokens": t * 1e9, "gpus": [cid]})
        elif k == 6:
            h = w.pick([100, 150, 250, 400])
            w.add(f"{c} 一个月大概用 {h} 小时，包月还是按量更省", "monthly", {"gpus": [cid], "hours_per_month": h})
        elif k == 7:
            h = w.pick([4, 6, 10, 16])
            w.add(f"we use our {c} about {h} hours a day, does a monthly plan pay off?", "monthly",
                  {"gpus": [cid], "hours_per_month": hpm_day(h)})
        elif k == 8:
            price = w.pick([12000, 15000, 18000])
            w.add(f"{c} 买断一张 {price} 元，和一直租比哪个划算，基本天天跑满", "buy",
                  {"gpus": [cid], "price": {"amount": price, "currency": "CNY"}, "hours_per_month": 730})
        elif k == 9:
            u = w.pick([50, 60, 80])
            w.add(f"buy or keep renting {c}s if utilization is around {u}%?", "buy", {"gpus": [cid], "utilization": u / 100})
        elif k == 10:
            c2id, c2 = w.card(exclude=(cid,))
            w.add(f"{c} 跟 {c2} 比，哪个更适合我们", "compare", {"gpus": [cid, c2id]})
        elif k == 11:
            c2id, c2 = w.card(exclude=(cid,))
            w.add(f"{c} or {c2} for our workload, which one?", "compare", {"gpus": [cid, c2id]})
        elif k == 12:
            b = w.pick([3000, 8000, 20000])
            w.add(f"预算 {b} 块左右，推荐一张合适的卡", "recommend", {"budget": {"amount": b, "currency": "CNY"}})
        elif k == 13:
            w.add(f"which gpu would you recommend for serving a {s} model", "recommend",
                  {"params_b": v, "method": "inference", "workload": "inference"})
        elif k == 14:
            h = w.pick([3, 8, 12])
            a = w.pick([20, 45, 90])
            proj = w.pick(["ocr", "asr", "rerank", "pretrain"])
            w.add(f"帮忙记一笔：{c} 用了 {h} 小时，{a} 元，项目 {proj}", "spend",
                  {"gpus": [cid], "hours": h, "amount": {"amount": a, "currency": "CNY"}, "project": proj, "mode": "add"})
        elif k == 15:
            h = w.pick([2, 5, 9])
            a = w.pick([6, 14, 30])
            w.add(f"log {h}h of {c} on {p}, ${a}", "spend",
                  {"gpus": [cid], "hours": h, "platform": pid, "amount": {"amount": a, "currency": "USD"}, "mode": "add"})
        elif k == 16:
            w.add(w.pick(["上个月一共花了多少", "这个月 GPU 开销汇总一下", "how much have we spent this month", "last month's gpu spend?"]), "spend",
                  {"month": "last" if ("上个月" in _last(w) or "last" in _last(w)) else "this", "mode": "report"})
        elif k == 17:
            t = w.pick([("合同里赔偿条款怎么写", "contract"), ("签约之前 SLA 要看哪些", "contract"), ("除了卡钱还有哪些隐藏费用", "hidden_costs"),
                        ("what hidden fees do gpu clouds charge", "hidden_costs"), ("采购 GPU 的流程是怎样的", "procurement"),
                        ("租卡有哪些坑要避开", "pitfalls"), ("信创项目只能用国产卡吗", "xinchuang")])
            w.add(t[0], "knowledge", {"topic": t[1]})
        elif k == 18:
            w.add(w.pick(["这个 bot 能做什么", "怎么用你", "what can you do?", "help"]), "help", {})
        elif k == 19:
            t = w.pick([("{c} 玩游戏帧数高吗", True), ("our cost function keeps diverging", False), ("周五团建去哪", False),
                        ("{c} 的风扇好吵", True), ("nvidia stock is up again", False), ("谢谢，收到", False)])
            text = t[0].format(c=c)
            w.add(text, "unknown", {"gpus": [cid]} if t[1] else {})
        elif k == 20:
            w.add(f"{s} 模型全参微调，{c} 要几张", "fit", {"params_b": v, "method": "full", "gpus": [cid]})
        else:
            w.add(f"{p} 和 {PLATFORMS[w.plat(exclude=(pid,))[0]][0]} 的 {c} 哪家便宜", "compare", None)
    # the last frame names two platforms; its slots are filled below
    for r in w.rows:
        if r["slots"] is None:
            names = re.findall(r"^(.*?) 和 (.*?) 的 (.*?) 哪家便宜$", r["text"])[0]
            ids = [next(k for k, v in PLATFORMS.items() if names[0] in v), next(k for k, v in PLATFORMS.items() if names[1] in v)]
            cid = next(k for k, v in CARDS.items() if names[2] in v)
            r["slots"] = {"gpus": [cid], "platform": ids[0], "platforms": ids}


def _last(w):
    return w.rows[-1]["text"] if w.rows else ""


def fix_reports(w):
    for r in w.rows:
        if r["intent"] == "spend" and r["slots"].get("mode") == "report":
            t = r["text"]
            r["slots"]["month"] = "last" if ("上个月" in t or "last" in t) else "this"


def main():
    os.makedirs(os.path.join(PARSE, "testdata"), exist_ok=True)
    test = Writer("w8-ops", "test", 8)
    w8(test, 700)
    fix_reports(test)
    n = test.write(os.path.join(PARSE, "testdata", "test_w8.jsonl"))
    print("w8-ops", n)


if __name__ == "__main__":
    main()
