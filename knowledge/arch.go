package knowledge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Arch is one open model's architecture as its config.json gives it, with
// the figures the memory, FLOP and KV-cache maths need. The rows are
// data/models.json, a copy of the project's reference model_configs.json:
// every row keeps its sources and confidence, and derived figures
// (params_b, active_params_b, KV bytes) are marked as such there
// (reference/DATA_NOTES.md).
type Arch struct {
	ID      string   `json:"id"`
	HFRepo  string   `json:"hf_repo"`
	Aliases []string `json:"aliases"`

	ParamsB               float64  `json:"params_b"`        // every weight of the language model, all experts
	ActiveParamsB         float64  `json:"active_params_b"` // MoE: weights one token touches, input embedding excluded; 0 = dense
	ParamsBComputed       float64  `json:"params_b_computed"`
	ParamsBReported       float64  `json:"params_b_reported"`
	ActiveParamsBReported float64  `json:"active_params_b_reported"`
	ActiveParamsBComputed *float64 `json:"active_params_b_computed"` // MoE: active incl. the input embedding

	Layers  int  `json:"num_hidden_layers"`
	Hidden  int  `json:"hidden_size"`
	Heads   int  `json:"num_attention_heads"`
	KVHeads int  `json:"num_key_value_heads"`
	HeadDim int  `json:"head_dim"` // 0 for MLA
	Inter   int  `json:"intermediate_size"`
	Vocab   int  `json:"vocab_size"`
	MaxPos  int  `json:"max_position_embeddings"`
	Tied    bool `json:"tie_word_embeddings"`

	// Mixture of experts.
	MoEInter          int    `json:"moe_intermediate_size"`
	RoutedExperts     int    `json:"n_routed_experts"`
	SharedExperts     int    `json:"n_shared_experts"`
	SharedExpertInter int    `json:"shared_expert_intermediate_size"`
	ActivatedExperts  int    `json:"n_activated_experts"` // experts per token
	DenseLayers       int    `json:"n_dense_layers"`
	MoELayerPattern   string `json:"moe_layer_pattern"`

	// Multi-head latent attention (DeepSeek V2/V3, Kimi K2).
	QLoraRank              int     `json:"q_lora_rank"`
	KVLoraRank             int     `json:"kv_lora_rank"`
	QKNopeHeadDim          int     `json:"qk_nope_head_dim"`
	QKRopeHeadDim          int     `json:"qk_rope_head_dim"`
	VHeadDim               int     `json:"v_head_dim"`
	KVBytesMLAUncompressed float64 `json:"kv_cache_bytes_per_token_bf16_mla_uncompressed"`

	Attention string `json:"attention"` // MHA, GQA, MLA, GQA+CLA
	// NativeDtype is the released weight format ("bf16", "fp8", "mxfp4 (MoE
	// expert weights); bf16 elsewhere"); empty when it was not read.
	NativeDtype string `json:"native_weight_dtype"`

	// KV cache, BF16 bytes per token over all layers with no window cap;
	// KVBytesGlobal + KVBytesLocal split it where some layers attend only
	// to a window of SlidingWindow tokens.
	KVBytesPerToken     float64 `json:"kv_cache_bytes_per_token_bf16"`
	SlidingWindow       int     `json:"sliding_window"`
	SlidingWindowLayers string  `json:"sliding_window_layers"`
	LocalLayers         int     `json:"num_local_layers"`
	KVBytesGlobal       float64 `json:"kv_bytes_per_token_bf16_global_layers"`
	KVBytesLocal        float64 `json:"kv_bytes_per_token_bf16_local_layers"`
	CLAShareFactor      int     `json:"cla_share_factor"`
	KVCacheNotes        string  `json:"kv_cache_notes"`

	ArchFlags  map[string]bool `json:"arch_flags"`
	Sources    []string        `json:"sources"`
	Confidence string          `json:"confidence"` // high, medium, low
	Notes      string          `json:"notes"`
}

// MoE reports whether the model routes tokens to a few of many experts.
func (a Arch) MoE() bool { return a.RoutedExperts > 0 && a.ActiveParamsB > 0 }

// ComputeParamsB is the parameters whose matrix multiplies every token
// runs: the active parameters of a mixture of experts (the input embedding
// is a lookup and costs no FLOPs), else the whole model.
func (a Arch) ComputeParamsB() float64 {
	if a.MoE() {
		return a.ActiveParamsB
	}
	return a.ParamsB
}

// RoutedParamsB is the weight held in routed experts, all of them. The
// unselected experts are total − active (with the embedding counted in
// active, as active_params_b_computed does), spread over routed − activated
// experts, so one expert slot across all layers is that ÷ (routed −
// activated) and all of them × routed.
func (a Arch) RoutedParamsB() float64 {
	if !a.MoE() || a.RoutedExperts <= a.ActivatedExperts {
		return 0
	}
	active := a.ActiveParamsB
	if a.ActiveParamsBComputed != nil {
		active = *a.ActiveParamsBComputed
	}
	perSlot := (a.ParamsB - active) / float64(a.RoutedExperts-a.ActivatedExperts)
	return perSlot * float64(a.RoutedExperts)
}

// WeightFormat is the native weight format the model ships in: "fp8",
// "mxfp4" (expert weights in MXFP4, the rest BF16) or "bf16" (also when the
// file does not say).
func (a Arch) WeightFormat() string {
	d := strings.ToLower(a.NativeDtype)
	switch {
	case strings.HasPrefix(d, "fp8"):
		return "fp8"
	case strings.HasPrefix(d, "mxfp4"):
		return "mxfp4"
	}
	return "bf16"
}

// KVBytes is the BF16 KV cache one sequence of ctx tokens holds: layers
// that attend to a window keep at most SlidingWindow tokens
// (global × ctx + local × min(ctx, window), reference/DATA_NOTES.md).
func (a Arch) KVBytes(ctx int) float64 {
	if a.SlidingWindow > 0 && a.LocalLayers > 0 && a.KVBytesLocal > 0 {
		return a.KVBytesGlobal*float64(ctx) + a.KVBytesLocal*float64(min(ctx, a.SlidingWindow))
	}
	return a.KVBytesPerToken * float64(ctx)
}

// Names lists the id and every alias.
func (a Arch) Names() []string { return append([]string{a.ID}, a.Aliases...) }

func decodeArchs(raw []byte) ([]Arch, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var out []Arch
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	for _, a := range out {
		switch {
		case a.ID == "" || a.ParamsB <= 0 || a.Layers <= 0 || a.Hidden <= 0 || a.Vocab <= 0:
			return nil, fmt.Errorf("model %q: id, params_b, layers, hidden and vocab are required", a.ID)
		case a.KVBytesPerToken <= 0:
			return nil, fmt.Errorf("model %s: no KV-cache size", a.ID)
		case len(a.Sources) == 0 || a.Confidence == "":
			return nil, fmt.Errorf("model %s: sources and confidence are required", a.ID)
		}
	}
	return out, nil
}
