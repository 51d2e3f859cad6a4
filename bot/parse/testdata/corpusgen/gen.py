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
    w7-paraphrase train many hand-written phrasings per intent
                        (w7_phrases.txt), labelled for intent only
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


NAMES = sorted({n.lower() for v in list(CARDS.values()) + list(PLATFORMS.values()) for n in v}, key=len, reverse=True)


def lang_of(text):
    """The parser's language rule (normalize.go langOf), restated; card and
    platform names are taken out first, as the parser does."""
    t = text.lower().translate(str.maketrans("０１２３４５６７８９", "0123456789"))
    for n in NAMES:
        t = t.replace(n, " ")
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



# --- w3-student: chatty Chinese, particles, typos ---------------------------

def w3(w, n):
    tails = ["呀", "啊", "呢", "哈", "~", "！", "", "", "?", "？"]
    for _ in range(n):
        cid, c = w.card()
        pid, p = w.plat()
        v, s = w.size()
        t = w.pick(tails)
        k = w.r.randrange(24)
        if k == 0:
            w.add(f"我想在 {p} 上租个 {c}，大概啥价位{t}", "price", {"gpus": [cid], "platform": pid})
        elif k == 1:
            w.add(f"{c} 现在一小时多少钱{t}", "price", {"gpus": [cid]})
        elif k == 2:
            w.add(f"{c} 最近是涨价了还是降价了{t}", "price", {"gpus": [cid]})
        elif k == 3:
            m, mw = w.pick([("lora", "lora"), ("lora", "lroa"), ("qlora", "qlora"), ("full", "全参")])
            w.add(f"{s} {mw} 显存要多少{t}", "fit", {"params_b": v, "method": m})
        elif k == 4:
            w.add(f"我只有一张 {c}，能跑 {s} 推理吗{t}", "fit", {"params_b": v, "method": "inference", "gpus": [cid], "cards": 1})
        elif k == 5:
            w.add(f"{s} 的模型放得下 {c} 吗{t}", "fit", {"params_b": v, "gpus": [cid]})
        elif k == 6:
            n_s = w.pick([1, 3, 5])
            w.add(f"用 {c} lora 微调 {s}，{n_s}万条数据，要花多少钱{t}", "cost",
                  {"params_b": v, "method": "lora", "samples": n_s * 10000, "gpus": [cid]})
        elif k == 7:
            b = w.pick([500, 1000, 3000])
            w.add(f"我预算就 {b} 块，能把 {s} lora 跑完吗{t}", "cost",
                  {"params_b": v, "method": "lora", "budget": {"amount": b, "currency": "CNY"}})
        elif k == 8:
            h = w.pick([50, 100, 200, 300])
            w.add(f"{c} 每月用 {h} 小时，包月值不值{t}", "monthly", {"gpus": [cid], "hours_per_month": h})
        elif k == 9:
            h = w.pick([3, 5, 8])
            w.add(f"一天就用 {h} 个小时，{c} 包月划算吗{t}", "monthly", {"gpus": [cid], "hours_per_month": hpm_day(h)})
        elif k == 10:
            w.add(f"自己买张 {c} 还是一直租好{t}", "buy", {"gpus": [cid]})
        elif k == 11:
            w.add(f"{c} 天天跑满的话买还是租{t}", "buy", {"gpus": [cid], "hours_per_month": 730})
        elif k == 12:
            c2id, c2 = w.card(exclude=(cid,))
            w.add(f"{c} 和 {c2} 有啥区别{t}", "compare", {"gpus": [cid, c2id]})
        elif k == 13:
            c2id, c2 = w.card(exclude=(cid,))
            w.add(f"{c} vs {c2} 选哪个{t}", "compare", {"gpus": [cid, c2id]})
        elif k == 14:
            b = w.pick([2000, 5000, 10000])
            w.add(f"学生党，预算 {b}，推荐张卡{t}", "recommend", {"budget": {"amount": b}, "persona": "individual"})
        elif k == 15:
            w.add(f"想玩 stable diffusion，用什么卡好{t}", "recommend", {"workload": "diffusion"})
        elif k == 16:
            h = w.pick([2, 4, 6])
            a = w.pick([8, 15, 22])
            w.add(f"记一笔 {c} {h} 小时 {a} 块", "spend", {"gpus": [cid], "hours": h, "amount": {"amount": a, "currency": "CNY"}, "mode": "add"})
        elif k == 17:
            w.add(w.pick(["撤销刚才那笔", "刚才记错了，撤回一下", "上一笔删掉吧"]), "spend", {"mode": "undo"})
        elif k == 18:
            w.add(w.pick(["这个月花了多少钱啦", "本月开销多少", "这个月账单看看"]), "spend", {"month": "this", "mode": "report"})
        elif k == 19:
            q = w.pick([("租卡会不会有隐藏费用" + t, "hidden_costs"), ("爆显存了怎么办" + t, "oom"), ("平台合同要注意啥" + t, "contract"),
                        ("按秒计费是怎么算的" + t, "pricing"), ("新手租卡有啥坑" + t, "pitfalls")])
            w.add(q[0], "knowledge", {"topic": q[1]})
        elif k == 20:
            w.add(w.pick(["你都能干啥" + t, "怎么用这个机器人" + t, "帮助"]), "help", {})
        elif k == 21:
            q = w.pick([(f"{c} 打黑神话帧数咋样{t}", True), (f"晚上吃火锅不{t}", False), (f"我的 {c} 电脑卡了{t}", True), ("哈哈哈", False), ("今天好冷" + t, False)])
            w.add(q[0], "unknown", {"gpus": [cid]} if q[1] else {})
        elif k == 22:
            w.add(f"{p} 上 {c} 包月多少钱{t}", "price", {"gpus": [cid], "platform": pid, "billing": "monthly"})
        else:
            w.add(f"{s} 模型要几张 {c} 才能全参训练{t}", "fit", {"params_b": v, "method": "full", "gpus": [cid]})


# --- w4-startup: terse English, Slack markup ---------------------------------

def w4(w, n):
    for _ in range(n):
        cid, c = w.card()
        pid, p = w.plat()
        v, s = w.size()
        k = w.r.randrange(24)
        mk = w.pick(["", "`", "*"])
        cc = f"{mk}{c}{mk}"
        if k == 0:
            w.add(f"{cc} on {p} $/hr?", "price", {"gpus": [cid], "platform": pid})
        elif k == 1:
            w.add(f"cheapest {cc} rn?", "price", {"gpus": [cid]})
        elif k == 2:
            w.add(f"current rate for {c} rental", "price", {"gpus": [cid]})
        elif k == 3:
            m = w.pick(["lora", "qlora"])
            w.add(f"vram for {s} {m}?", "fit", {"params_b": v, "method": m})
        elif k == 4:
            w.add(f"does {s} fit on a single {cc} for inference", "fit", {"params_b": v, "method": "inference", "gpus": [cid], "cards": 1})
        elif k == 5:
            w.add(f"how many {c}s to serve {s}", "fit", {"params_b": v, "method": "inference", "gpus": [cid]})
        elif k == 6:
            n_s = w.pick([10, 50, 100])
            e = w.pick([1, 2, 3])
            w.add(f"est cost: {s} lora, {n_s}k samples, {e} epochs, {c}", "cost",
                  {"params_b": v, "method": "lora", "samples": n_s * 1000, "epochs": e, "gpus": [cid]})
        elif k == 7:
            b = w.pick([1, 2, 5])
            w.add(f"we have ${b}k. can we afford a full finetune of {s}?", "cost",
                  {"params_b": v, "method": "full", "budget": {"amount": b * 1000, "currency": "USD"}})
        elif k == 8:
            tpd = w.pick([5, 10, 50])
            w.add(f"serving {s} at {tpd}M tokens/day, monthly bill?", "cost",
                  {"params_b": v, "method": "inference", "tokens_per_day": tpd * 1e6})
        elif k == 9:
            h = w.pick([80, 120, 300])
            w.add(f"{cc} {h}h/mo - monthly or on-demand", "monthly", {"gpus": [cid], "hours_per_month": h})
        elif k == 10:
            h = w.pick([20, 40, 60])
            w.add(f"{h} hours a week on {c}, is reserved worth it", "monthly", {"gpus": [cid], "hours_per_month": round(h * 365 / 7 / 12, 4)})
        elif k == 11:
            w.add(f"buy vs rent {c}, running 24/7", "buy", {"gpus": [cid], "hours_per_month": 730})
        elif k == 12:
            price = w.pick([1600, 2000, 30000])
            w.add(f"payback on a {c} bought at ${price}?", "buy", {"gpus": [cid], "price": {"amount": price, "currency": "USD"}})
        elif k == 13:
            c2id, c2 = w.card(exclude=(cid,))
            w.add(f"{c} vs {c2}", "compare", {"gpus": [cid, c2id]})
        elif k == 14:
            c2id, c2 = w.card(exclude=(cid,))
            w.add(f"diff between {c} and {c2} for training?", "compare", {"gpus": [cid, c2id]})
        elif k == 15:
            b = w.pick([500, 1000, 3000])
            w.add(f"best gpu under ${b}/mo?", "recommend", {"budget": {"amount": b, "currency": "USD"}})
        elif k == 16:
            w.add(f"which gpu for {s} qlora, small team", "recommend", {"params_b": v, "method": "qlora", "workload": "llm-finetune", "persona": "startup"})
        elif k == 17:
            h = w.pick([2, 6, 10])
            a = w.pick([5, 12, 40])
            proj = w.pick(["search-rerank", "asr", "llm-ft"])
            w.add(f"log {h}h {c} ${a} project={proj}", "spend",
                  {"gpus": [cid], "hours": h, "amount": {"amount": a, "currency": "USD"}, "project": proj, "mode": "add"})
        elif k == 18:
            w.add(w.pick(["undo last entry", "undo that", "revert the last spend entry"]), "spend", {"mode": "undo"})
        elif k == 19:
            w.add(w.pick(["spend this month?", "how much did we spend last month", "last month's gpu bill by project"]), "spend", None)
        elif k == 20:
            q = w.pick([("any hidden fees besides the gpu?", "hidden_costs"), ("what should an sla cover", "contract"), ("how do i fix oom", "oom"),
                        ("common pitfalls when renting gpus", "pitfalls"), ("procurement checklist for gpus", "procurement")])
            w.add(q[0], "knowledge", {"topic": q[1]})
        elif k == 21:
            w.add(w.pick(["help", "what can you do", "usage?", "what commands are there"]), "help", {})
        elif k == 22:
            q = w.pick([(f"my {c} gets 200 fps in cs2 lol", True), ("the cost function is nan again", False), ("standup moved to 10am", False),
                        ("pr review pls", False), (f"is the {c} on my desk still under warranty", True)])
            w.add(q[0], "unknown", {"gpus": [cid]} if q[1] else {})
        else:
            w.add(f"{cc} price on {p} vs elsewhere", "price", {"gpus": [cid], "platform": pid})
    for r in w.rows:
        if r["slots"] is None:
            r["slots"] = {"month": "last" if "last" in r["text"] else "this", "mode": "report"}


# --- w5-buyer: formal Chinese procurement --------------------------------------

def w5(w, n):
    for _ in range(n):
        cid, c = w.card()
        pid, p = w.plat()
        v, s = w.size()
        k = w.r.randrange(22)
        if k == 0:
            w.add(f"请问{p}平台 {c} 的按小时租用价格是多少？", "price", {"gpus": [cid], "platform": pid})
        elif k == 1:
            w.add(f"烦请提供 {c} 的最新市场报价", "price", {"gpus": [cid]})
        elif k == 2:
            w.add(f"我司计划部署 {s} 参数模型用于推理，请评估所需显存", "fit", {"params_b": v, "method": "inference"})
        elif k == 3:
            w.add(f"{s} 模型全参数微调需要多少张 {c}？", "fit", {"params_b": v, "method": "full", "gpus": [cid]})
        elif k == 4:
            t = w.pick([10, 50, 100])
            w.add(f"请估算在 {c} 上全量训练 {s} 模型、{t} 亿 token 的总成本", "cost",
                  {"params_b": v, "method": "full", "tokens": t * 1e8, "gpus": [cid]})
        elif k == 5:
            tpd = w.pick([1000, 5000])
            w.add(f"{s} 模型推理，每天约 {tpd} 万 token，采用 {c} 每月费用如何", "cost",
                  {"params_b": v, "method": "inference", "tokens_per_day": tpd * 1e4, "gpus": [cid]})
        elif k == 6:
            h = w.pick([200, 400, 600])
            w.add(f"{c} 每月使用约 {h} 小时，采用包月方案是否更经济？", "monthly", {"gpus": [cid], "hours_per_month": h})
        elif k == 7:
            w.add(f"{c} 包月与按需计费，如何选择", "monthly", {"gpus": [cid]})
        elif k == 8:
            w.add(f"我司拟自建机房采购 {c}，与长期租用相比的回本周期如何", "buy", {"gpus": [cid]})
        elif k == 9:
            price = w.pick([200, 210, 250])
            w.add(f"8 卡 {c} 整机报价 {price} 万，是否值得购买", "buy", {"gpus": [cid], "cards": 8, "price": {"amount": price * 10000}})
        elif k == 10:
            c2id, c2 = w.card(exclude=(cid,))
            w.add(f"请对比 {c} 与 {c2} 的性能与成本差异", "compare", {"gpus": [cid, c2id]})
        elif k == 11:
            p2id, p2 = w.plat(exclude=(pid,))
            w.add(f"{p}与{p2}在企业服务方面有何差别", "compare", {"platform": pid, "platforms": [pid, p2id], "persona": None})
        elif k == 12:
            b = w.pick([50, 100, 300])
            w.add(f"企业预算 {b} 万元，建议采购何种算力方案", "recommend", {"budget": {"amount": b * 10000, "currency": "CNY"}, "persona": "enterprise"})
        elif k == 13:
            w.add(f"{s} 模型推理业务，推荐选用何种 GPU", "recommend", {"params_b": v, "method": "inference", "workload": "inference"})
        elif k == 14:
            h = w.pick([24, 48, 72])
            a = w.pick([2000, 5000, 8800])
            proj = w.pick(["pretrain", "ocr", "asr"])
            w.add(f"请登记一笔费用：{c} 8 卡 {h} 小时，合计 {a} 元，计入 {proj} 项目", "spend",
                  {"gpus": [cid], "cards": 8, "hours": h, "amount": {"amount": a, "currency": "CNY"}, "project": proj, "mode": "add"})
        elif k == 15:
            w.add(w.pick(["请汇总本月 GPU 支出", "上月算力费用明细", "本月各项目支出情况"]), "spend", None)
        elif k == 16:
            q = w.pick([("租赁合同中应包含哪些赔偿条款", "contract"), ("采购算力的标准流程是什么", "procurement"), ("信创要求下可选哪些国产加速卡", "xinchuang"),
                        ("云平台是否存在隐性收费项目", "hidden_costs"), ("服务等级协议 SLA 应如何约定", "contract")])
            w.add(q[0], "knowledge", {"topic": q[1]})
        elif k == 17:
            w.add(w.pick(["请问本工具支持哪些功能", "使用说明", "有哪些命令可用"]), "help", {})
        elif k == 18:
            q = w.pick([("请于周五前提交季度报告", False), (f"{c} 驱动安装失败，请 IT 协助", True), ("会议室已预订", False), ("感谢各位的配合", False)])
            w.add(q[0], "unknown", {"gpus": [cid]} if q[1] else {})
        elif k == 19:
            w.add(f"{c} 国内租赁行情如何", "price", {"gpus": [cid]})
        elif k == 20:
            u = w.pick([60, 70, 90])
            w.add(f"若 {c} 利用率约 {u}%，自购是否优于租用", "buy", {"gpus": [cid], "utilization": u / 100})
        else:
            w.add(f"单张 {c} 能否承载 {s} 模型推理", "fit", {"params_b": v, "method": "inference", "gpus": [cid], "cards": 1})
    for r in w.rows:
        if r["slots"] is None:
            t = r["text"]
            mode = "list" if "明细" in t else "report"
            r["slots"] = {"month": "last" if "上月" in t else "this", "mode": mode}
        elif "persona" in r["slots"] and r["slots"]["persona"] is None:
            del r["slots"]["persona"]


# --- w6-mixed: code-switching, full-width (dev) --------------------------------

FULL = str.maketrans("0123456789", "０１２３４５６７８９")


def w6(w, n):
    for _ in range(n):
        cid, c = w.card()
        pid, p = w.plat()
        v, s = w.size()
        fw = w.r.random() < 0.3
        k = w.r.randrange(20)
        if k == 0:
            text, intent, sl = f"{p} 的 {c} price 多少", "price", {"gpus": [cid], "platform": pid}
        elif k == 1:
            text, intent, sl = f"{s} qlora 需要多少 vram 啊", "fit", {"params_b": v, "method": "qlora"}
        elif k == 2:
            text, intent, sl = f"{c} 能不能 fit {s} inference", "fit", {"params_b": v, "method": "inference", "gpus": [cid]}
        elif k == 3:
            e = w.pick([1, 2])
            text, intent, sl = f"{s} lora 2万 samples {e} epochs 在 {c} 上 cost 多少", "cost", {"params_b": v, "method": "lora", "samples": 20000, "epochs": e, "gpus": [cid]}
        elif k == 4:
            h = w.pick([100, 200])
            text, intent, sl = f"{c} monthly 划算吗，每月 {h} 小时", "monthly", {"gpus": [cid], "hours_per_month": h}
        elif k == 5:
            text, intent, sl = f"{c} 买 or 租，我们 7x24 跑", "buy", {"gpus": [cid], "hours_per_month": 730}
        elif k == 6:
            c2id, c2 = w.card(exclude=(cid,))
            text, intent, sl = f"{c} 和 {c2} compare 一下", "compare", {"gpus": [cid, c2id]}
        elif k == 7:
            b = w.pick([3000, 6000])
            text, intent, sl = f"budget {b} 块, recommend 个卡", "recommend", {"budget": {"amount": b, "currency": "CNY"}}
        elif k == 8:
            h = w.pick([3, 7])
            a = w.pick([10, 30])
            text, intent, sl = f"记一笔 {c} {h}h ¥{a} project ocr", "spend", {"gpus": [cid], "hours": h, "amount": {"amount": a, "currency": "CNY"}, "project": "ocr", "mode": "add"}
        elif k == 9:
            text, intent, sl = "这个月 spend 多少", "spend", {"month": "this", "mode": "report"}
        elif k == 10:
            text, intent, sl = w.pick(["SLA 赔付怎么算", "egress 流量费贵吗", "OOM 了咋办"]), "knowledge", None
        elif k == 11:
            text, intent, sl = w.pick(["help 一下", "你能 do 什么"]), "help", {}
        elif k == 12:
            text, intent, sl = w.pick([(f"{c} 的 driver 又挂了", True), ("cost function 写错了 haha", False), ("meeting 推迟到三点", False)]), "unknown", None
        elif k == 13:
            text, intent, sl = f"{c} 一小时 多少 钱 on {p}", "price", {"gpus": [cid], "platform": pid}
        elif k == 14:
            tpd = w.pick([10, 20])
            text, intent, sl = f"{s} serving 每天 {tpd}M tokens 用 {c} 多少钱", "cost", {"params_b": v, "method": "inference", "tokens_per_day": tpd * 1e6, "gpus": [cid]}
        elif k == 15:
            text, intent, sl = f"{c} 包月 vs on-demand", "monthly", {"gpus": [cid]}
        elif k == 16:
            text, intent, sl = f"{c} 要不要 buy，利用率 80%", "buy", {"gpus": [cid], "utilization": 0.8}
        elif k == 17:
            text, intent, sl = f"which 卡 适合 {s} lora 微调", "recommend", {"params_b": v, "method": "lora", "workload": "llm-finetune"}
        elif k == 18:
            text, intent, sl = f"undo 刚才那笔", "spend", {"mode": "undo"}
        else:
            text, intent, sl = f"{s} 推理 要 几张 {c}", "fit", {"params_b": v, "method": "inference", "gpus": [cid]}
        if intent == "knowledge":
            sl = {"topic": {"SLA 赔付怎么算": "contract", "egress 流量费贵吗": "hidden_costs", "OOM 了咋办": "oom"}[text]}
        if intent == "unknown":
            text, has = text
            sl = {"gpus": [cid]} if has else {}
        if fw:
            text = text.translate(FULL)
        w.add(text, intent, sl)



# --- w7-paraphrase: many phrasings, intent only --------------------------------

def w7(w, n):
    bank, intent = {}, None
    for line in open(os.path.join(HERE, "w7_phrases.txt"), encoding="utf-8"):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            intent = line.strip("[]")
            bank[intent] = []
            continue
        bank[intent].append(line)
    for _ in range(n):
        intent = w.pick(sorted(bank))
        frame = w.pick(bank[intent])
        cid, c = w.card()
        c2id, c2 = w.card(exclude=(cid,))
        pid, p = w.plat()
        p2id, p2 = w.plat(exclude=(pid,))
        v, s = w.size()
        text = frame.format(c=c, c2=c2, p=p, p2=p2, s=s, n=w.pick([2, 3, 4, 5, 8]))
        w.rows.append({"split": w.split, "kind": kind_of(text), "writer": w.name, "text": text,
                       "intent": intent, "lang": lang_of(text)})

def main():
    os.makedirs(os.path.join(PARSE, "testdata"), exist_ok=True)
    if os.environ.get("CORPUS_TEST"):
        # the test slice is written once; regenerating it is a deliberate act
        test = Writer("w8-ops", "test", 8)
        w8(test, 700)
        fix_reports(test)
        print("w8-ops", test.write(os.path.join(PARSE, "testdata", "test_w8.jsonl")))
    for name, fn, split, seed, n, path in [
        ("w3-student", w3, "train", 3, 900, "data/train_w3.jsonl"),
        ("w4-startup", w4, "train", 4, 900, "data/train_w4.jsonl"),
        ("w5-buyer", w5, "train", 5, 800, "data/train_w5.jsonl"),
        ("w6-mixed", w6, "dev", 6, 600, "testdata/dev_w6.jsonl"),
        ("w7-paraphrase", w7, "train", 7, 2500, "data/train_w7.jsonl"),
    ]:
        wr = Writer(name, split, seed)
        fn(wr, n)
        print(name, wr.write(os.path.join(PARSE, path)))


if __name__ == "__main__":
    main()
