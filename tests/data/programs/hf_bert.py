"""A Hugging Face BERT built from a tiny config, called at growing sequence lengths."""

import torch


def workload():
    from transformers import BertConfig, BertModel

    torch.manual_seed(0)
    config = BertConfig(
        hidden_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        intermediate_size=32,
        vocab_size=64,
        max_position_embeddings=64,
    )
    model = BertModel(config).eval()
    compiled = torch.compile(model, backend="eager")
    outputs = []
    with torch.no_grad():
        for length in (5, 9, 13):
            ids = torch.arange(length).remainder(64).unsqueeze(0)
            mask = torch.ones_like(ids)
            outputs.append(compiled(input_ids=ids, attention_mask=mask).last_hidden_state)
    return outputs


if __name__ == "__main__":
    print([round(t.sum().item(), 3) for t in workload()])
