"""torchvision's efficientnet_b0, convnext_tiny and vit_b_16 with their
activations swapped for actk's (actk.torch.replace): the logits must stay as
close to the unmodified model's as the activations' own error allows, in
float32 and bfloat16. Random weights (no downloads), batch 1, inference mode.

The bound is derived, not guessed. Two correct implementations of an
activation may differ by their two error bounds: actk's accurate tier is
within 2 ulp in f32 and faithful (1 ulp) in bf16; torch's are about as good
(f32) or faithful on all but a few hundred inputs (bf16). So the unmodified
model is run again with every activation output moved by a random relative
error of that size, eps: f32 4 ulp (2^-21), bf16 one ulp at the bottom of a
binade (2^-8, then rounded to bf16). How far that moves the logits, relative
to the logits' own scale, is the network's sensitivity to activation error
of that size; actk's swap must stay within 4x the larger of two such runs
(the errors are not random: a systematic one can add up where random ones
partly cancel). In f32 a wrong activation fails it: the tanh form of GELU in
place of the erf form moved convnext_tiny's logits 25x and vit_b_16's 28x
past it (measured). bf16 cannot tell those two apart (their difference is
mostly below its last place); the fast tier passes both, as it should.

Calibrated for random init, which leaves these models degenerate: eval-mode
BatchNorm with fresh running stats (mean 0, var 1) lets efficientnet_b0's
activations vanish (logits about 1e-14), so its running stats are first set
from one training-mode pass over random input; convnext_tiny's layer_scale
of 1e-6 leaves its blocks (and their GELUs) nearly without effect, so it is
set to 1; vit_b_16's classifier head is zero-initialised (all logits 0), so
it gets normal(0, 0.02) weights. The tests check the logits and the
sensitivity are not zero.
"""
import copy
import os

import pytest

try:
    import torch
    import torchvision
    import actk.torch as at
except ImportError as e:  # pragma: no cover - depends on the machine
    if os.environ.get("ACTK_REQUIRE_TORCH") == "1":
        raise
    pytest.skip("torch, torchvision or actk.torch not available: %s" % e, allow_module_level=True)

EPS = {torch.float32: 2.0**-21, torch.bfloat16: 2.0**-8}
MODELS = ["efficientnet_b0", "convnext_tiny", "vit_b_16"]
ACTIVATIONS = (torch.nn.GELU, torch.nn.SiLU, torch.nn.Sigmoid, torch.nn.Tanh)


def build(name):
    torch.manual_seed(0)
    m = getattr(torchvision.models, name)(weights=None)
    if name == "vit_b_16":
        torch.nn.init.normal_(m.heads.head.weight, std=0.02)
    for mod in m.modules():
        if hasattr(mod, "layer_scale"):  # convnext's CNBlock
            mod.layer_scale.data.fill_(1.0)
    bns = [b for b in m.modules() if isinstance(b, torch.nn.BatchNorm2d)]
    if bns:
        for b in bns:
            b.reset_running_stats()
            b.momentum = None  # the plain average of the passes
        m.train()
        with torch.no_grad():
            m(torch.randn(4, 3, 224, 224))
    return m.eval()


class Perturbed(torch.nn.Module):
    """An activation whose output is moved by a random relative error of up to eps."""

    def __init__(self, act, eps, gen):
        super().__init__()
        self.act, self.eps, self.gen = act, eps, gen

    def forward(self, x):
        y = self.act(x)
        u = torch.rand(y.shape, generator=self.gen) * 2 - 1
        return (y.float() * (1 + self.eps * u)).to(y.dtype)


def perturb(model, eps, seed):
    gen = torch.Generator().manual_seed(seed)
    m = copy.deepcopy(model)
    for parent in list(m.modules()):
        for cname, child in list(parent.named_children()):
            if type(child) in ACTIVATIONS:
                setattr(parent, cname, Perturbed(child, eps, gen))
    return m


def rel(a, b, scale):
    return float((a.float() - b.float()).abs().max()) / scale


@pytest.fixture(scope="module")
def models():
    return {}


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16], ids=["f32", "bf16"])
@pytest.mark.parametrize("name", MODELS)
def test_swapped_model_logits(name, dtype, models):
    if name not in models:
        models[name] = build(name)
    model = copy.deepcopy(models[name]).to(dtype)
    x = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(1)).to(dtype)
    with torch.inference_mode():
        ref = model(x)
        scale = float(ref.float().abs().max())
        assert torch.isfinite(ref.float()).all() and scale > 1e-3 and float(ref.float().std()) > 0
        noise = max(rel(perturb(model, EPS[dtype], s)(x), ref, scale) for s in (1, 2))
        assert noise > 0, "the activations do not reach the logits: a degenerate model"
        ours = copy.deepcopy(model)
        swapped = at.replace(ours)
        assert swapped and not any(type(m) in ACTIVATIONS for m in ours.modules())
        got = ours(x)
    err = rel(got, ref, scale)
    print("%s %s: |actk - torch| / max|logit| = %.3g, sensitivity to eps = %.3g (bound %.3g)"
          % (name, dtype, err, noise, 4 * noise))
    assert err <= 4 * noise
