"""A Hugging Face GPT-2 built from a tiny config, called at growing sequence lengths."""

import torch


def workload():
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(0)
    config = GPT2Config(n_layer=1, n_head=2, n_embd=16, vocab_size=64, n_positions=64)
    model = GPT2LMHeadModel(config).eval()
    compiled = torch.compile(model, backend="eager")
    outputs = []
    with torch.no_grad():
        for length in (5, 9, 13):
            ids = torch.arange(length).remainder(64).unsqueeze(0)
            outputs.append(compiled(input_ids=ids).logits)
    return outputs


if __name__ == "__main__":
    print([round(t.sum().item(), 3) for t in workload()])
