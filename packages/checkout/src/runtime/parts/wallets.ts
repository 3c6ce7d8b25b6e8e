// The wallets' part of the view machine, loaded on demand (a wallet's own flow is its view's, src/wallets/).
import { walletsPart } from '../../machine/parts/wallets.ts';
import type { RuntimePart } from './part.ts';

export const wallets: RuntimePart = { machine: walletsPart };
