package knowledge

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// ImageModel is a text-to-image diffusion model's components, as
// data/image_models.json (a copy of the reference image_models.json) gives
// them: parameter counts in millions, with sources and a confidence.
type ImageModel struct {
	ID           string              `json:"id"`
	HFRepo       string              `json:"hf_repo"`
	Aliases      []string            `json:"aliases"`
	Backbone     string              `json:"backbone"` // UNet, MMDiT, …
	BackboneM    float64             `json:"backbone_params_m"`
	TextEncoders map[string]*float64 `json:"text_encoders"` // nil = size not read
	VAEM         float64             `json:"vae_params_m"`
	TotalM       float64             `json:"total_params_m"`
	Resolution   int                 `json:"native_resolution"`
	LatentCh     int                 `json:"latent_channels"`
	Sources      []string            `json:"sources"`
	Confidence   string              `json:"confidence"`
	Notes        string              `json:"notes"`
}

// UNet reports whether the backbone is a convolutional UNet (SD 1.5,
// SDXL) rather than a diffusion transformer (SD3, FLUX).
func (m ImageModel) UNet() bool { return strings.HasPrefix(m.Backbone, "UNet") }

// TextEncoderM sums the text encoders whose size is known, and says
// whether any is missing.
func (m ImageModel) TextEncoderM() (sum float64, missing bool) {
	for _, v := range m.TextEncoders {
		if v == nil {
			missing = true
			continue
		}
		sum += *v
	}
	return sum, missing
}

// Names lists the id and aliases.
func (m ImageModel) Names() []string { return append([]string{m.ID}, m.Aliases...) }

func decodeImageModels(raw []byte) ([]ImageModel, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var out []ImageModel
	if err := dec.Decode(&out); err != nil {
		return nil, err
	}
	for _, m := range out {
		if m.ID == "" || m.BackboneM <= 0 || m.Resolution <= 0 || len(m.Sources) == 0 {
			return nil, fmt.Errorf("image model %q: id, backbone size, resolution and sources are required", m.ID)
		}
	}
	return out, nil
}

// FindImageModel finds an image model by id or alias.
func FindImageModel(ms []ImageModel, name string) (ImageModel, bool) {
	k := NormalizeName(name)
	for _, m := range ms {
		for _, n := range m.Names() {
			if NormalizeName(n) == k {
				return m, true
			}
		}
	}
	return ImageModel{}, false
}
