package retrieve

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gpubot/gpubot/knowledge"
)

func newIndex(t *testing.T) *Index {
	t.Helper()
	return New(knowledge.MustShipped().Guide, knowledge.MustLexicon())
}

// seedTopics are the seed topics, each asked in both languages, with
// the guide items that answer it.
var seedTopics = []struct {
	topic  string
	zh, en string
	want   []string // any of these is a right first answer
}{
	{"procurement steps", "GPU 采购流程分几步", "what are the steps to procure gpus", []string{"procurement-four-steps"}},
	{"contract/SLA checklist", "租卡合同要写哪些条款", "what should a gpu rental contract and SLA cover", []string{"contract-checklist", "contract-sla-compensation"}},
	{"hidden costs incl. egress", "数据出口费怎么收", "how is egress charged", []string{"egress-fees", "hidden-costs-table"}},
	{"hidden costs", "除了卡钱还有哪些隐藏费用", "what hidden costs come on top of the gpu price", []string{"hidden-costs-table", "billing-structure"}},
	{"spot interruption", "可中断实例半路被回收了咋办", "my spot instance got preempted mid-run, what now", []string{"spot-interruption-checkpointing"}},
	{"data retention", "训练完平台会删除我们的数据吗", "how long does the platform keep our data after the job", []string{"contract-data-retention"}},
	{"cross-border", "用海外算力训练数据跨境要注意啥", "cross-border data rules for training on overseas gpus", []string{"cross-border-data"}},
	{"信创", "信创项目怎么迁移到国产卡", "how long does a xinchuang migration to domestic accelerators take", []string{"xinchuang-migration"}},
	{"lock-in", "怎么避免被一家平台绑定", "how do we avoid vendor lock-in", []string{"vendor-lock-in", "contract-exit-price-protection"}},
	{"platform categories", "零售平台和大厂云比差在哪", "retail gpu platforms vs hyperscalers, what's the difference", []string{"platform-categories", "big-cloud-worth-it"}},
	{"H20", "H20 算力被砍了为啥还有人买", "why would anyone buy an h20 with its cut compute", []string{"h20-positioning"}},
	{"H800", "H800 和 H100 选哪个，互联砍了有影响吗", "h800 or h100, does the nvlink cut matter", []string{"h100-vs-h800"}},
	{"quantisation", "量化到 4bit 效果会差多少", "how much quality does 4-bit quantization lose", []string{"quantization-accuracy"}},
	{"MoE", "MoE 模型为什么显存大但算得快", "why do moe models need so much memory but run fast", []string{"moe-memory-vs-compute"}},
	{"NVLink for DP", "数据并行训练需要 NVLink 吗", "do we need nvlink for data parallel training", []string{"nvlink-data-parallel"}},
	{"throughput", "实测吞吐为什么比标称低", "why is measured throughput below the spec sheet", []string{"throughput-below-spec"}},
	{"DeepSeek cost", "DeepSeek V3 说训练只花了 557 万美元是真的吗", "is deepseek v3's training cost claim real", []string{"deepseek-cost-excludes"}},
}

func TestSeedTopics(t *testing.T) {
	ix := newIndex(t)
	for _, tt := range seedTopics {
		for _, q := range []string{tt.zh, tt.en} {
			hits := ix.Search(q)
			if len(hits) == 0 || hits[0].Score < MinScore {
				t.Errorf("%s: Search(%q) found nothing above %.0f (best %v)", tt.topic, q, MinScore, top(hits))
				continue
			}
			ok := false
			for _, w := range tt.want {
				ok = ok || hits[0].Item.ID == w
			}
			if !ok {
				t.Errorf("%s: Search(%q) = %s, want one of %v (ranking %v)", tt.topic, q, hits[0].Item.ID, tt.want, top(hits))
			}
		}
	}
}

func TestEveryItemBothLanguages(t *testing.T) {
	for _, it := range knowledge.MustShipped().Guide {
		if it.TitleEN == "" || it.TitleZH == "" || it.BodyEN == "" || it.BodyZH == "" {
			t.Errorf("guide item %s lacks a title or body in one language", it.ID)
		}
	}
}

func TestOffTopicFindsNothing(t *testing.T) {
	ix := newIndex(t)
	for _, q := range []string{"今天中午吃什么", "who won the game last night", "asdf qwer"} {
		if hits := ix.Search(q); len(hits) > 0 && hits[0].Score >= MinScore {
			t.Errorf("Search(%q) = %s (%.1f), want nothing above %.0f", q, hits[0].Item.ID, hits[0].Score, MinScore)
		}
	}
}

func top(hits []Hit) string {
	var s []string
	for i, h := range hits {
		if i == 3 {
			break
		}
		s = append(s, fmt.Sprintf("%s:%.1f", h.Item.ID, h.Score))
	}
	return strings.Join(s, " ")
}
