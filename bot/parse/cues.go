package parse

// cue is a word or phrase that points at an intent. Chinese cues (any
// non-ASCII byte) match anywhere in the text with spaces removed; ASCII cues
// match as whole words ("rent" is not in "current"; a trailing * allows a
// longer word). Weights add up per intent; a negative weight argues against.
type cue struct {
	p string
	i Intent
	w float64
}

// offTopic marks messages that are not for the bot even when they name a
// card ("4090 打游戏", "nvidia stock price"). Its score is subtracted from
// the best intent's.
const offTopic Intent = "-offtopic"

// cues is the router's vocabulary. Hard negatives are encoded as heavy cues
// of the intent that must win: 报销/记一笔 (spend) outweigh 包月 (monthly);
// 合同/SLA/迁移/隐藏费用/采购流程/怎么办 (knowledge) outweigh the money and
// fit words they appear with; 包月多少钱 is a price question.
var cues = []cue{
	// fit: will it fit, how much memory, how many cards
	{"显存", Fit, 2.5}, {"多大显存", Fit, 1}, {"多少显存", Fit, 1}, {"显存多大", Fit, 1}, {"显存要多", Fit, 1},
	{"放得下", Fit, 3}, {"装得下", Fit, 3}, {"塞得下", Fit, 3}, {"放不下", Fit, 2.5},
	{"跑得动", Fit, 2.5}, {"跑不动", Fit, 2}, {"能跑", Fit, 2}, {"能不能跑", Fit, 2.5}, {"能不能", Fit, 1},
	{"够不够", Fit, 1.5}, {"够吗", Fit, 1}, {"够用", Fit, 1.5}, {"几张", Fit, 1.5}, {"多少张", Fit, 1.5},
	{"要几张", Fit, 1}, {"需要几", Fit, 1}, {"几块卡", Fit, 1.5}, {"单卡能", Fit, 1}, {"会oom", Fit, 2.5}, {"oom吗", Fit, 2.5},
	{"会不会oom", Fit, 1}, {"爆显存吗", Fit, 3}, {"吃多少", Fit, 1.5}, {"占用", Fit, 1.5}, {"爆显存", Fit, -1.5},
	{"显存不够", Fit, -1}, {"显存溢出", Fit, -1.5},
	{"vram", Fit, 2.5}, {"memory", Fit, 1.5}, {"fit", Fit, 2.5}, {"fits", Fit, 2.5}, {"how many gpus", Fit, 2.5},
	{"how many cards", Fit, 2.5}, {"how many", Fit, 1}, {"can i run", Fit, 2}, {"run", Fit, 0.5}, {"can", Fit, 0.5},
	{"footprint", Fit, 2.5}, {"enough", Fit, 1}, {"do i need", Fit, 1.5},

	// cost: what a job costs
	{"成本", Cost, 3}, {"费用", Cost, 3}, {"花多少", Cost, 2.5}, {"要花", Cost, 2}, {"多久", Cost, 1},
	{"预估", Cost, 2}, {"估算", Cost, 2}, {"算一下", Cost, 1}, {"算下", Cost, 1}, {"卡时", Cost, 2.5},
	{"总共", Cost, 1}, {"一共", Cost, 0.5}, {"大概多少", Cost, 1.5}, {"大约要花", Cost, 1}, {"多少hours", Cost, 3},
	{"多少小时", Cost, 1.5},
	{"cost", Cost, 2.5}, {"how much to", Cost, 3}, {"ballpark", Cost, 2}, {"estimate", Cost, 2},
	{"gpu hours", Cost, 2.5}, {"gpu-hours", Cost, 2.5}, {"bill", Cost, 1.5}, {"$/m", Cost, 4}, {"per million", Cost, 3},
	{"per 1m", Cost, 2}, {"how long", Cost, 1},

	// monthly: monthly plan vs on-demand
	{"包月", Monthly, 4}, {"月租", Monthly, 3}, {"按月", Monthly, 3}, {"包年", Monthly, 3}, {"月付", Monthly, 3},
	{"按需", Monthly, 1.5}, {"按量", Monthly, 1.5}, {"按小时", Monthly, 1.5}, {"按时计费", Monthly, 1.5},
	{"划算", Monthly, 0.5}, {"多少小时才回本", Monthly, 3}, {"利用率", Monthly, 0.5},
	{"monthly", Monthly, 3.5}, {"monthly plan", Monthly, 1}, {"on-demand", Monthly, 1.5}, {"on demand", Monthly, 1.5},
	{"pay-as-you-go", Monthly, 2}, {"hourly", Monthly, 1}, {"reserved", Monthly, 2}, {"utilization", Monthly, 0.5},

	// buy: rent vs buy
	{"买", Buy, 1.5}, {"买卡", Buy, 2}, {"购买", Buy, 2.5}, {"自购", Buy, 3.5}, {"自建", Buy, 3.5}, {"买断", Buy, 3},
	{"买还是租", Buy, 5}, {"租还是买", Buy, 5}, {"还是租", Buy, 2}, {"还是买", Buy, 2}, {"一直租", Buy, 2},
	{"vs买", Buy, 3}, {"买vs", Buy, 3}, {"买了", Buy, 1}, {"买了划算", Buy, 1.5}, {"自己买", Buy, 2}, {"要不要买", Buy, 2}, {"值得买", Buy, 2},
	{"回本", Buy, 3}, {"折旧", Buy, 3}, {"机房", Buy, 2}, {"上云", Buy, 1.5}, {"资金成本", Buy, 2}, {"利用率", Buy, 1},
	{"buy", Buy, 2.5}, {"buying", Buy, 2.5}, {"purchase", Buy, 2.5}, {"rent or buy", Buy, 5}, {"buy or rent", Buy, 5},
	{"rent vs buy", Buy, 5}, {"buy vs rent", Buy, 5}, {"own hardware", Buy, 3.5}, {"our own", Buy, 2},
	{"payback", Buy, 3}, {"depreciation", Buy, 3}, {"on-prem", Buy, 3}, {"on prem", Buy, 3}, {"keep renting", Buy, 2},
	{"beat renting", Buy, 2}, {"utilization", Buy, 1},

	// price: what a card costs to rent today
	{"价格", Price, 3}, {"什么价", Price, 3}, {"报价", Price, 3}, {"行情", Price, 3}, {"涨价", Price, 3},
	{"降价", Price, 3}, {"涨了", Price, 2}, {"跌了", Price, 2}, {"最便宜", Price, 2.5}, {"便宜", Price, 1},
	{"哪家", Price, 1.5}, {"单价", Price, 2.5}, {"多少钱一", Price, 2}, {"一小时多少", Price, 2.5},
	{"租一小时", Price, 1}, {"一天多少", Price, 1}, {"有货", Price, 1.5}, {"趋势", Price, 2.5},
	{"包月多少", Price, 5}, {"包月价", Price, 4}, {"月租多少", Price, 5}, {"月租什么价", Price, 5},
	{"monthly多少钱", Price, 5}, {"按月租多少", Price, 2},
	{"price", Price, 3}, {"prices", Price, 3}, {"pricing", Price, 2.5}, {"cheapest", Price, 2.5},
	{"going rate", Price, 3}, {"quote", Price, 2}, {"go for", Price, 2}, {"rental", Price, 1}, {"per hour", Price, 1},
	{"cost to rent", Price, 2},

	// compare: two or more cards or platforms (full weight needs two named)
	{"对比", Compare, 3}, {"比较", Compare, 3}, {"区别", Compare, 3}, {"差别", Compare, 3}, {"差异", Compare, 3},
	{"选哪个", Compare, 3}, {"哪个好", Compare, 2.5}, {"哪个", Compare, 1}, {"还是", Compare, 1}, {"比", Compare, 0.5},
	{"跟", Compare, 0.5}, {"谁", Compare, 1}, {"不一样", Compare, 2.5}, {"差多少", Compare, 2}, {"哪家", Compare, 0.5},
	{"更适合", Compare, 1}, {"性能", Compare, 1},
	{"vs", Compare, 3}, {"versus", Compare, 3}, {"compare", Compare, 3}, {"compared", Compare, 3},
	{"comparison", Compare, 3}, {"difference", Compare, 3}, {"better", Compare, 1.5}, {"which is", Compare, 1.5},
	{"which one", Compare, 1.5}, {"faster", Compare, 2}, {"or", Compare, 0.5},

	// recommend: which card for a workload or budget
	{"推荐", Recommend, 3}, {"用什么卡", Recommend, 3}, {"选什么卡", Recommend, 3}, {"什么卡", Recommend, 2},
	{"哪张卡", Recommend, 2.5}, {"哪张", Recommend, 1.5}, {"选卡", Recommend, 2}, {"卡怎么选", Recommend, 2.5},
	{"怎么选", Recommend, 1}, {"性价比最高", Recommend, 2.5}, {"性价比高", Recommend, 1.5}, {"性价比", Recommend, 1},
	{"最划算的", Recommend, 2}, {"方案", Recommend, 2}, {"建议", Recommend, 1.5}, {"配置", Recommend, 1},
	{"租什么", Recommend, 2.5}, {"买什么", Recommend, 2.5}, {"用什么", Recommend, 1}, {"推理卡", Recommend, 1.5},
	{"recommend", Recommend, 3}, {"recommendation*", Recommend, 3}, {"suggest*", Recommend, 2}, {"which gpu", Recommend, 3},
	{"what gpu", Recommend, 3}, {"which card", Recommend, 3}, {"what card", Recommend, 2.5}, {"best gpu", Recommend, 3},
	{"best value", Recommend, 3}, {"bang for", Recommend, 3}, {"what should", Recommend, 2}, {"should we rent", Recommend, 1.5},
	{"budget plan", Recommend, 3}, {"something for", Recommend, 1.5}, {"on a budget", Recommend, 1.5},

	// spend: the team's ledger
	{"记一笔", Spend, 8}, {"记账", Spend, 8}, {"报销", Spend, 8}, {"记一下", Spend, 6}, {"记到", Spend, 6},
	{"帮我记", Spend, 6}, {"花了", Spend, 3}, {"支出", Spend, 3}, {"开销", Spend, 3}, {"花费", Spend, 2.5},
	{"账单", Spend, 4}, {"明细", Spend, 3}, {"流水", Spend, 3}, {"撤销", Spend, 5}, {"撤回", Spend, 5},
	{"删掉", Spend, 2.5}, {"删除", Spend, 2.5}, {"记录", Spend, 2}, {"那笔", Spend, 3}, {"一笔", Spend, 2},
	{"刚才", Spend, 1}, {"列一下", Spend, 2},
	{"spent", Spend, 4}, {"spend", Spend, 4}, {"expense*", Spend, 4}, {"log", Spend, 3}, {"record", Spend, 2.5},
	{"undo", Spend, 5}, {"how much did we", Spend, 3}, {"ledger", Spend, 4},

	// knowledge: guide questions
	{"合同", Knowledge, 5}, {"条款", Knowledge, 5}, {"赔付", Knowledge, 4}, {"赔偿", Knowledge, 4}, {"索赔", Knowledge, 5},
	{"赔不赔", Knowledge, 4}, {"赔多少", Knowledge, 4}, {"宕机", Knowledge, 3}, {"退款", Knowledge, 4}, {"能退", Knowledge, 5},
	{"发票", Knowledge, 5}, {"专票", Knowledge, 5}, {"开票", Knowledge, 5}, {"怎么办", Knowledge, 3}, {"怎么解决", Knowledge, 3},
	{"解决办法", Knowledge, 3}, {"爆显存", Knowledge, 3}, {"显存不够", Knowledge, 2}, {"显存溢出", Knowledge, 3},
	{"显存不足", Knowledge, 2}, {"信创", Knowledge, 6}, {"国产化", Knowledge, 5}, {"国产卡", Knowledge, 4},
	{"国产替代", Knowledge, 4}, {"迁移", Knowledge, 4}, {"迁到", Knowledge, 4}, {"隐藏", Knowledge, 4}, {"隐性", Knowledge, 4},
	{"额外费用", Knowledge, 4}, {"额外收费", Knowledge, 4}, {"流量费", Knowledge, 4}, {"存储费", Knowledge, 4},
	{"收费吗", Knowledge, 3}, {"还收费", Knowledge, 3}, {"采购", Knowledge, 2}, {"流程", Knowledge, 3}, {"步骤", Knowledge, 3},
	{"从哪开始", Knowledge, 3}, {"坑", Knowledge, 4}, {"误区", Knowledge, 4}, {"注意什么", Knowledge, 2.5},
	{"注意哪些", Knowledge, 2.5}, {"注意啥", Knowledge, 2.5}, {"要注意", Knowledge, 1.5}, {"计费", Knowledge, 2},
	{"按秒", Knowledge, 2.5}, {"平台怎么选", Knowledge, 4}, {"选平台", Knowledge, 3}, {"数据安全", Knowledge, 4},
	{"销毁", Knowledge, 3}, {"为什么", Knowledge, 2}, {"除了", Knowledge, 1},
	{"contract*", Knowledge, 5}, {"sla", Knowledge, 5}, {"hidden cost*", Knowledge, 5}, {"hidden fee*", Knowledge, 5},
	{"egress", Knowledge, 4}, {"data deletion", Knowledge, 4}, {"procurement", Knowledge, 5}, {"checklist", Knowledge, 3},
	{"mistakes", Knowledge, 4}, {"pitfall*", Knowledge, 5}, {"how do i fix", Knowledge, 3}, {"how to fix", Knowledge, 3},
	{"oom", Knowledge, 2}, {"out of memory", Knowledge, 3}, {"tips", Knowledge, 2}, {"billing", Knowledge, 2},
	{"per-second", Knowledge, 2.5}, {"provider*", Knowledge, 2}, {"invoice*", Knowledge, 4}, {"refund*", Knowledge, 4},
	{"migrat*", Knowledge, 4}, {"watch for", Knowledge, 2}, {"choose a", Knowledge, 1},
	{"procure", Knowledge, 5}, {"step by step", Knowledge, 3}, {"buying process", Knowledge, 5},

	// help: what the bot can do ("help" alone is handled in route)
	{"帮助", Help, 5}, {"怎么用", Help, 4}, {"使用说明", Help, 5}, {"你能做什么", Help, 5}, {"你能干啥", Help, 5},
	{"你能干嘛", Help, 5}, {"能做什么", Help, 3}, {"有哪些命令", Help, 5},
	{"what can you do", Help, 5}, {"what can this bot do", Help, 5}, {"what commands", Help, 5}, {"usage", Help, 4},
	{"how do i use", Help, 4},

	// off-topic: chat, games, markets, other work
	{"天气", offTopic, 5}, {"吃啥", offTopic, 5}, {"吃火锅", offTopic, 5}, {"吃饭", offTopic, 5}, {"午饭", offTopic, 5},
	{"游戏", offTopic, 5}, {"黑神话", offTopic, 5}, {"帧", offTopic, 4}, {"股票", offTopic, 6}, {"股价", offTopic, 6},
	{"市值", offTopic, 6}, {"团建", offTopic, 5}, {"放假", offTopic, 5}, {"开会", offTopic, 4}, {"咖啡", offTopic, 5},
	{"快速排序", offTopic, 5}, {"快排", offTopic, 5}, {"电脑卡了", offTopic, 5}, {"你好", offTopic, 3}, {"谢谢", offTopic, 3},
	{"好的", offTopic, 3}, {"收到", offTopic, 3}, {"测试一下", offTopic, 3},
	{"weather", offTopic, 5}, {"stock", offTopic, 5}, {"bitcoin", offTopic, 6}, {"iphone", offTopic, 5}, {"game", offTopic, 3},
	{"gaming", offTopic, 4}, {"fps", offTopic, 4}, {"meeting", offTopic, 4}, {"resume", offTopic, 5}, {"pr", offTopic, 2},
	{"review", offTopic, 2}, {"build", offTopic, 2}, {"broken", offTopic, 2}, {"good morning", offTopic, 5},
	{"hello", offTopic, 2}, {"thanks", offTopic, 3}, {"thank you", offTopic, 3}, {"lol", offTopic, 3}, {"who won", offTopic, 5},
}
