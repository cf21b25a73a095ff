/// The chain an earlier grouping of errtriage's gave an event, where it may differ from the one it
/// gives now: before schema 14 (`ErrorEvent.formerChain`: codes from a link's whole message and,
/// where no code was stated, from the type and that message's name alone), and before schema 21
/// (`ErrorEvent.priorChain`: the whole path of the app's frames as the raise site, the masks before
/// it). Worked out only when a store made before then looks for the issue of a key it does not know
/// (the ingest's aliases), so that most events never pay for it: a link read from its message keeps
/// the message, and reads it on demand, with the masks of then (`MessageTemplate.Rules.former`).
public struct FormerChain: Hashable, Sendable {
    /// One link of the former chain.
    public enum Link: Hashable, Sendable {
        /// The link as it was: its code known.
        case read(ChainLink)
        /// A link whose code came from its message (its whole message before schema 14, its own
        /// words before 18): a code the message states, else one derived from the type and the
        /// message's name; `codeName` names a link without a message.
        case fromMessage(domain: String, message: String?, codeName: String?)
    }

    public var links: [Link]

    public init(links: [Link]) { self.links = links }

    /// The former chain, outermost first (short names to be resolved, as the importers leave them).
    public var chain: ErrorChain {
        ErrorChain(links: links.map { link in
            switch link {
            case .read(let known):
                return known
            case .fromMessage(let domain, let message, let codeName):
                let stated = message.flatMap(MessageTemplate.statedCode)
                let name = (stated?.rest ?? message).flatMap { MessageTemplate.caseName($0, rules: .former) } ?? codeName
                guard let stated else {
                    return ChainLink(domain: domain, short: "", code: MessageTemplate.derivedCode(domain: domain, name: name), name: name,
                                     origin: .derived)
                }
                return ChainLink(domain: domain, short: "", code: stated.code, name: name, origin: .message)
            }
        })
    }

    /// The chain with every text made storable (`StorableText`).
    public mutating func makeStorable() {
        for i in links.indices {
            switch links[i] {
            case .read(let link):
                var chain = ErrorChain(links: [link])
                chain.makeStorable()
                links[i] = .read(chain.links[0])
            case .fromMessage(let domain, let message, let codeName):
                links[i] = .fromMessage(domain: StorableText.clean(domain), message: StorableText.clean(message),
                                        codeName: StorableText.clean(codeName))
            }
        }
    }
}
