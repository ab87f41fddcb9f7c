internal import CLlama
import HearthCore
import HearthTestSupport
import Testing

@testable import LlamaKit

/// Why drafts checked in one batch give the answer plain decoding gives: on this machine's CPU backend a batch of
/// up to 48 tokens yields, bit for bit, the logits the same tokens give evaluated one at a time (a draft's batch
/// is at most 17). A prompt read in one larger batch does not (its last token's logits differ by up to about
/// 0.5 from that token evaluated alone), which is why a repeated request that reuses the cached prompt can
/// answer differently from the first, drafts or not.
@Suite("Batched evaluation against one token at a time", .heavy)
struct BatchArithmeticTests {
  @Test(arguments: [2, 9, 17, 48])
  func aDraftSizedBatchGivesTheSingleTokenLogits(size: Int) async throws {
    let session = try await SharedModels.session()
    let prompt = try session.chatPromptTokens([.user(String(repeating: "The sea is deep and blue. ", count: 12))])
    let largest = try await DecodeExecutor.shared.perform { () throws(LlamaError) -> Float in
      let width = session.model.metadata.vocabularySize
      try session.decode(Array(prompt.dropLast(size)), at: 0, wantLogits: false)
      try session.decode(Array(prompt.suffix(size)), at: prompt.count - size, wantLogits: true)
      let batched = Array(UnsafeBufferPointer(start: llama_get_logits_ith(session.context, -1), count: width))
      llama_memory_seq_rm(llama_get_memory(session.context), 0, Int32(prompt.count - 1), -1)
      try session.decode([prompt.last!], at: prompt.count - 1, wantLogits: true)
      let single = UnsafeBufferPointer(start: llama_get_logits_ith(session.context, -1), count: width)
      return zip(single, batched).map { abs($0 - $1) }.max() ?? .infinity
    }
    #expect(largest == 0)
  }
}
