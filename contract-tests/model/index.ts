// The model of the contract: what the run knows of the target's pets and window, and the judge that
// holds every exchange to what the document and the earlier exchanges predict (method 'model').
import type { Pet, Spec } from '../../openapi/index.js';
import type { JudgeEntry, KnownPet, ModelView } from './types.js';

export interface ContractModel {
  readonly view: ModelView;
  readonly judge: JudgeEntry;
}

export function createContractModel(_spec: Spec): ContractModel {
  const created: Pet[] = [];
  const known = new Map<number, KnownPet>();
  const view: ModelView = {
    knownPets: () => [...known.values()],
    createdPets: () => created,
    maxKnownId: () => (known.size === 0 ? undefined : Math.max(...known.keys())),
    knownBefore: (id) => known.get(id),
    window: () => undefined,
  };
  return {
    view,
    judge: {
      id: 'model',
      method: 'model',
      judge(observed) {
        const response = observed.response;
        if (response === undefined || !response.conforms || response.json === undefined) return [];
        const { exchange } = observed;
        const since = { kind: 'exchange', sentSeq: exchange.sentSeq, summary: exchange.operationId } as const;
        if (exchange.operationId === 'createPet' && response.status === 201) {
          const pet = response.json.value as Pet;
          created.push(pet);
          known.set(pet.id, { pet, origin: 'created', since });
        }
        return [];
      },
    },
  };
}
