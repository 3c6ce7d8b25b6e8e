// A view (or a part of one) whose code is imported on demand: the option list, the saved methods and their header row,
// the delete confirmation, 3-D Secure's dialog.
import { lazy, useEffect, type ComponentType } from 'react';
import { inTime } from '../runtime/in-time.ts';
import { useCheckoutContext } from './checkout-context.ts';

/**
 * A view imported on demand. One whose download fails, or stalls past the parts' time limit, shows nothing and fails
 * the checkout as a part that did not download does ("Reload the page"): a browser keeps the failure, so only a
 * reload loads it. Rejected, the view would throw in the sheet and React would take the whole checkout off the page.
 */
export const onDemand = <P extends object>(load: () => Promise<{ default: ComponentType<P> }>) =>
  lazy(() =>
    inTime(load()).catch((error: unknown) => ({
      default: () => {
        const { runtime } = useCheckoutContext();
        useEffect(() => runtime?.notDownloaded(error), [runtime]);
        return null;
      },
    })),
  );
